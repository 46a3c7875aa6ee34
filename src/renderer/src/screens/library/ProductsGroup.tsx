import type { LibraryProduct } from '../../api/types'
import { Badge } from '../../components/Badge'
import { Card } from '../../components/Card'
import { Icon } from '../../components/Icon'
import { ShowMore, useShownRows } from '../../components/ShowMore'
import { EmptyState } from '../../components/States'
import { RelativeTime } from '../../components/Time'
import { formatBytes } from '../../format/bytes'

const PLATFORMS: Record<string, string> = { windows: 'Windows', macos: 'macOS', linux: 'Linux' }

/** Owned products with their download buttons, as on the customer's library page. */
export function ProductsGroup({ products }: { products: LibraryProduct[] }) {
  const rows = useShownRows(products)
  return (
    <Card
      title="Products"
      description="What the customer owns, with downloads (links check the entitlement and the download token)."
      testId="library-products"
    >
      {products.length === 0 ? (
        <EmptyState compact title="No products">
          This customer has no active entitlement yet. Make a purchase in QA actions.
        </EmptyState>
      ) : (
        <ul className="product-grid">
          {rows.shown.map((product) => (
            <li key={product.product_id} className="product-card" data-testid={`library-product-${product.product_id}`}>
              <div className="product-card__head">
                <p className="product-card__name">{product.name}</p>
                {product.version ? <Badge tone="neutral">v{product.version}</Badge> : null}
                {product.activated_on_this_device === true ? <Badge tone="success">on this device</Badge> : null}
                {product.entitled ? null : <Badge tone="danger">lapsed</Badge>}
              </div>
              <p className="muted small">
                {product.sources.join(', ')} · acquired <RelativeTime value={product.acquired_at} /> ·{' '}
                {product.license_ids.length} license
                {product.license_ids.length === 1 ? '' : 's'}
              </p>
              {!product.entitled ? (
                <p className="muted small" data-testid="entitlement-lapsed">
                  No downloads: every source of this product lapsed (revoked, refunded or expired license, ended trial
                  or subscription).
                </p>
              ) : product.downloads.length === 0 ? (
                <p className="muted small">No downloads published.</p>
              ) : (
                <ul className="downloads">
                  {product.downloads.map((download) => (
                    <li key={download.file_id}>
                      <a
                        className="btn btn--secondary btn--sm download"
                        href={download.url}
                        download={download.filename}
                        title={download.filename}
                      >
                        <Icon name="download" size={14} />
                        <span>{PLATFORMS[download.platform] ?? download.platform}</span>
                        <span className="muted">{formatBytes(download.size_bytes)}</span>
                      </a>
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ul>
      )}
      <ShowMore rows={rows} what="products" />
    </Card>
  )
}
