import { useEffect } from 'react'

import type { CredentialRecord, Product } from '../../api/types'
import { Badge } from '../../components/Badge'
import { Card, KeyValue } from '../../components/Card'
import { Icon } from '../../components/Icon'
import { LongValue } from '../../components/LongValue'
import { Skeleton } from '../../components/Skeleton'
import { EmptyState, ErrorState } from '../../components/States'
import { DateTime, RelativeTime } from '../../components/Time'
import { pluralize } from '../../format/number'
import { useConnection } from '../../stores/connection'
import { useDevelopers } from '../../stores/developers'
import { useProducts } from '../../stores/products'
import type { ProductDetail } from '../../stores/products'
import { failedWithoutData } from '../../stores/resource'
import { AuditTable } from './AuditTable'
import { ConnectionSummary } from './ConnectionSummary'
import { CredentialActions } from './CredentialActions'
import { HistoryTable } from './HistoryTable'

const EMPTY: ProductDetail = {
  current: { status: 'idle', data: null, error: null },
  history: { status: 'idle', data: null, error: null },
  audit: { status: 'idle', data: null, error: null },
  connection: { status: 'idle', data: null, error: null }
}

function causeText(credential: CredentialRecord): string {
  switch (credential.revocationCause) {
    case 'rotate-key':
      return 'replaced by a key rotation'
    case 'rotate-secret':
      return 'replaced by a secret rotation'
    case 'revoke':
      return 'revoked'
    default:
      return 'revoked'
  }
}

function RecordView({ credential, product }: { credential: CredentialRecord; product: Product }) {
  return (
    <KeyValue
      testId="credential-record"
      items={[
        {
          label: 'Product ID',
          value: (
            <span className="inline-actions inline-actions--nowrap">
              <LongValue value={product.id} what="product ID" />
              <span className="muted small">not the App ID</span>
            </span>
          )
        },
        {
          label: 'App ID',
          value: <LongValue value={credential.appId} what="App ID" testId="app-id" />
        },
        {
          label: 'Plugin key',
          value: (
            <code className="mono" data-testid="key-preview">
              {credential.pluginKeyPreview}
            </code>
          )
        },
        {
          label: 'Plugin secret',
          value: (
            <code className="mono" data-testid="secret-preview">
              {credential.pluginSecretPreview}
            </code>
          )
        },
        { label: 'API base URL', value: <LongValue value={credential.apiBaseUrl} what="API base URL" /> },
        {
          label: 'Status',
          value: credential.isActive ? (
            <Badge tone="success">active</Badge>
          ) : (
            <span className="inline-actions">
              <Badge tone="danger">{credential.status}</Badge>
              <span className="small">
                {causeText(credential)} <RelativeTime value={credential.revokedAt} />
                {credential.revokedReason ? <> — “{credential.revokedReason}”</> : null}
              </span>
            </span>
          )
        },
        { label: 'Created', value: <DateTime value={credential.createdAt} /> },
        { label: 'Last used', value: <RelativeTime value={credential.lastUsedAt} empty="never used by a plugin" /> },
        {
          label: 'Recoverable',
          value: !credential.isActive ? (
            <span>No: the credential is revoked, and only the active credential is revealed.</span>
          ) : credential.hasRecoverableSecret ? (
            <span>Yes: the secret can be revealed again (sealed under this emulator's runtime key).</span>
          ) : (
            <span className="callout callout--warning callout--inline" data-testid="unrecoverable">
              <Icon name="alert" size={14} /> {unrecoverableText(credential)}
            </span>
          )
        },
        {
          label: 'Reveals',
          value: (
            <span className="small">
              {credential.secretShownOnce ? (
                <>
                  Shown once at issue (<RelativeTime value={credential.secretShownOnceAt} />)
                </>
              ) : (
                'Not shown at issue'
              )}
              {' · '}
              {credential.revealCount > 0 ? (
                <>
                  revealed {pluralize(credential.revealCount, 'time')}, last{' '}
                  <RelativeTime value={credential.lastRevealedAt} />
                </>
              ) : (
                'never revealed since'
              )}
            </span>
          )
        },
        ...(credential.rotatedFromId
          ? [{ label: 'Replaces', value: <code className="mono small">{credential.rotatedFromId}</code> }]
          : [])
      ]}
    />
  )
}

function RecordSkeleton() {
  return (
    <dl className="kv" aria-hidden="true">
      {[140, 220, 150, 150, 200, 70, 160, 120, 240, 260].map((width, index) => (
        <div className="kv__row" key={index}>
          <dt>
            <Skeleton width={90} height="0.9em" />
          </dt>
          <dd>
            <Skeleton width={width} height="1.1em" />
          </dd>
        </div>
      ))}
    </dl>
  )
}

/** One product's credential: the record, the actions, the connection status, the history and the audit trail. */
export function CredentialPanel({ product }: { product: Product | null }) {
  const detail = useProducts((state) => (product ? state.details[product.id] : undefined)) ?? EMPTY
  const loadDetail = useProducts((state) => state.loadDetail)
  const actingId = useDevelopers((state) => state.actingId)
  const dataVersion = useConnection((state) => state.dataVersion)
  const productId = product?.id ?? null

  useEffect(() => {
    if (productId) void loadDetail(productId)
  }, [productId, loadDetail, actingId, dataVersion])

  const current = detail.current
  return (
    <div className="stack stack--loose">
      <Card
        title={
          product ? (
            <span className="inline-actions">
              {product.name}
              {current.data ? (
                current.data.isActive ? (
                  <Badge tone="success">active</Badge>
                ) : (
                  <Badge tone="danger">revoked</Badge>
                )
              ) : null}
            </span>
          ) : (
            <Skeleton width={180} height="1.2em" />
          )
        }
        description="The product credential: App ID, plugin key and plugin secret, as embedded in plugin packages."
        testId="credential-card"
      >
        {product ? (
          <CredentialActions
            product={product}
            current={current.data}
            loaded={current.status === 'ready' || current.data !== null}
          />
        ) : null}
        {product && current.data?.isActive ? (
          <p className="muted small" data-testid="rotate-hint">
            Rotate key for a planned change, Rotate secret when the secret leaked or is lost: both issue a new plugin
            key and secret, and the audit trail records which.
          </p>
        ) : null}
        {failedWithoutData(current) ? (
          <ErrorState
            error={current.error}
            title="Could not read the credential"
            onRetry={() => productId && void loadDetail(productId)}
          />
        ) : current.data && product ? (
          <RecordView credential={current.data} product={product} />
        ) : current.status === 'ready' && product ? (
          <EmptyState title="No credential yet" compact>
            This product has never had a credential. <strong>Create</strong> issues one and shows its secret once;{' '}
            <strong>Ensure</strong> does the same only when none is active, as package builders call it.
          </EmptyState>
        ) : (
          <RecordSkeleton />
        )}
      </Card>
      <div className="grid grid--2">
        <ConnectionSummary
          connection={detail.connection}
          currentCredentialId={current.status === 'ready' ? (current.data?.id ?? null) : undefined}
        />
        <HistoryTable history={detail.history} />
      </div>
      <AuditTable audit={detail.audit} />
    </div>
  )
}

/** Why the secret cannot be revealed again, as the Recoverable row says it. */
function unrecoverableText(credential: CredentialRecord): string {
  switch (credential.unrecoverableReason) {
    case 'other-runtime-key':
      return 'No: sealed under another runtime key: rotate to get new values.'
    case 'no-runtime-key':
      return 'No: the emulator runs without a runtime key: rotate to get new values.'
    default:
      return 'No: this secret cannot be revealed again. Rotate the secret to issue one you can export.'
  }
}
