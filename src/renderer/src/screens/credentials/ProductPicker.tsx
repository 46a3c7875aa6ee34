import type { Product } from '../../api/types'
import { Skeleton } from '../../components/Skeleton'
import { currentCredentialByProduct, useProducts } from '../../stores/products'
import { buildHash } from '../../app/routes'
import { CredentialStatusBadge } from '../developers/ProductList'

/** The products of the acting developer, as a list of links (the selection lives in the route). */
export function ProductPicker({ products, selectedId }: { products: Product[] | null; selectedId: string | null }) {
  const credentials = useProducts((state) => state.credentials.data)
  const current = currentCredentialByProduct(credentials)
  return (
    <nav className="picker" aria-label="Products">
      <h2 className="picker__title">Products</h2>
      <ul className="picker__list">
        {products === null
          ? Array.from({ length: 3 }, (_, index) => (
              <li key={index} className="picker__item" aria-hidden="true">
                <span className="picker__link">
                  <Skeleton width="70%" height="1em" />
                  <Skeleton width="50%" height="0.8em" />
                </span>
              </li>
            ))
          : products.map((product) => (
              <li key={product.id} className="picker__item">
                <a
                  className="picker__link"
                  href={buildHash('credentials', { product: product.id })}
                  aria-current={product.id === selectedId ? 'page' : undefined}
                >
                  <span className="picker__name">{product.name}</span>
                  <span className="picker__meta">
                    <code className="mono">{product.id}</code>
                    {credentials === null ? (
                      <Skeleton width={56} height="1.2em" radius={999} />
                    ) : (
                      <CredentialStatusBadge credential={current.get(product.id)} />
                    )}
                  </span>
                </a>
              </li>
            ))}
      </ul>
    </nav>
  )
}
