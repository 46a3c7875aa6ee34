import { Card } from '../../components/Card'
import { JsonView } from '../../components/JsonView'
import { Skeleton, SkeletonLines } from '../../components/Skeleton'
import { ErrorState } from '../../components/States'
import { RelativeTime } from '../../components/Time'
import { formatBytes } from '../../format/bytes'
import { useLibrary } from '../../stores/library'
import { LicenseState } from './LicensesGroup'

/** The compact payload a plugin's web view gets (/api/license/v1/webview-library), drawn as a small plugin panel. */
export function WebviewPreview() {
  const webview = useLibrary((state) => state.webview)
  const reload = useLibrary((state) => state.reload)
  const payload = webview.data
  if (webview.status === 'error' && !payload)
    return (
      <ErrorState error={webview.error} title="Could not load the web view payload" onRetry={() => void reload()} />
    )
  return (
    <div className="webview" data-testid="webview-preview">
      <div className="plugin-window" aria-label="In-plugin web view preview">
        <div className="plugin-window__bar" aria-hidden="true">
          <span />
          <span />
          <span />
          <span className="plugin-window__title">My account</span>
        </div>
        <div className="plugin-window__body">
          {!payload ? (
            <div aria-hidden="true" className="stack">
              <Skeleton width="60%" height="1.2em" />
              <SkeletonLines lines={4} />
            </div>
          ) : (
            <>
              <p className="plugin-window__hello">
                Signed in as <strong>{payload.profile.name ?? payload.profile.email}</strong>
              </p>
              <p className="plugin-window__owned">{payload.owned ? '✓ You own this product' : 'Not owned yet'}</p>
              {payload.licenses.length > 0 ? (
                <ul className="plugin-window__list">
                  {payload.licenses.map((license) => (
                    <li key={license.id}>
                      <code className="mono">{license.license_key}</code>
                      <LicenseState state={license.state} />
                      <span className="small">
                        {license.activation_count}/{license.max_activations} seats
                        {license.expires_at ? (
                          <>
                            {' '}
                            · expires <RelativeTime value={license.expires_at} kind="deadline" />
                          </>
                        ) : null}
                      </span>
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="small">No licenses.</p>
              )}
              {payload.products.flatMap((product) =>
                product.downloads.map((download) => (
                  <a
                    key={`${product.product_id}-${download.platform}`}
                    className="plugin-window__download"
                    href={download.url}
                  >
                    Download {product.name} {download.version} for {download.platform} (
                    {formatBytes(download.size_bytes)})
                  </a>
                ))
              )}
              <p className="plugin-window__support small">Help: {payload.support.contact_email}</p>
            </>
          )}
        </div>
      </div>
      <Card
        title="GET /api/license/v1/webview-library"
        description={payload ? `Scope: ${payload.scope}. The library token is sent as Bearer.` : 'Loading…'}
        className="webview__raw"
      >
        {payload ? (
          <JsonView value={payload} label="Web view payload" maxHeight={520} />
        ) : (
          <Skeleton width="100%" height={320} radius={6} />
        )}
      </Card>
    </div>
  )
}
