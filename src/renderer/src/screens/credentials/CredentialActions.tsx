import { useState } from 'react'

import type { CredentialRecord, Product } from '../../api/types'
import { Button } from '../../components/Button'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { useProducts } from '../../stores/products'
import type { CredentialAction } from '../../stores/products'
import { toast } from '../../stores/toasts'
import { ACTION_COPY, EXPORT_COPY } from './action-copy'

/** Why an action is unavailable right now (null: available). */
function unavailable(action: CredentialAction, current: CredentialRecord | null): string | null {
  const active = current?.isActive === true
  switch (action) {
    case 'create':
      return active ? 'An active credential exists: use Ensure, or rotate.' : null
    case 'ensure':
      return null
    case 'reveal-secret':
      if (!active) return 'No active credential to reveal.'
      if (current?.hasRecoverableSecret) return null
      return current?.unrecoverableReason === 'other-runtime-key'
        ? 'Sealed under another runtime key: rotate to get new values.'
        : 'This secret is not recoverable: rotate the secret instead.'
    case 'rotate-key':
    case 'rotate-secret':
    case 'revoke':
      return active ? null : 'No active credential.'
  }
}

const ORDER: CredentialAction[] = ['create', 'ensure', 'reveal-secret', 'rotate-key', 'rotate-secret', 'revoke']

export function CredentialActions({
  product,
  current,
  loaded
}: {
  product: Product
  current: CredentialRecord | null
  loaded: boolean
}) {
  const runAction = useProducts((state) => state.runAction)
  const pending = useProducts((state) => state.pending)
  const [asking, setAsking] = useState<CredentialAction | null>(null)
  // Export is a reveal with its own words: the dialog that follows holds the export.
  const [exporting, setExporting] = useState(false)
  const copy = exporting ? EXPORT_COPY : asking ? ACTION_COPY[asking] : null
  const exportWhy = loaded ? unavailable('reveal-secret', current) : 'Loading…'

  const confirm = async (reason: string) => {
    if (!asking) return
    const action = asking
    const outcome = await runAction(product.id, action, reason || undefined)
    setAsking(null)
    setExporting(false)
    if (outcome.kind === 'existing')
      toast.info('Already active', 'An active credential exists, so no secret was shown. Reveal or rotate to get it.')
    else if (outcome.kind === 'revoked')
      toast.success(outcome.revoked ? 'Credential revoked' : 'Nothing to revoke', product.name)
    else toast.success(copy?.done ?? ACTION_COPY[action].done, product.name)
  }

  return (
    <div className="action-bar" role="group" aria-label="Credential actions">
      {ORDER.map((action) => {
        const why = loaded ? unavailable(action, current) : 'Loading…'
        const text = ACTION_COPY[action]
        const primary =
          loaded && ((action === 'create' && !current?.isActive) || (action === 'reveal-secret' && why === null))
        return (
          <Button
            key={action}
            size="sm"
            variant={primary ? 'primary' : 'secondary'}
            className={action === 'revoke' ? 'btn--danger-text' : undefined}
            disabled={why !== null}
            disabledReason={why}
            title={text.description}
            busy={pending?.productId === product.id && pending.action === action}
            onClick={() => setAsking(action)}
          >
            {text.label}
          </Button>
        )
      })}
      <Button
        size="sm"
        icon="download"
        disabled={exportWhy !== null}
        disabledReason={exportWhy}
        title={EXPORT_COPY.description}
        busy={exporting && pending?.productId === product.id}
        onClick={() => {
          setExporting(true)
          setAsking('reveal-secret')
        }}
        data-testid="export-credential"
      >
        {EXPORT_COPY.label}
      </Button>
      <ConfirmDialog
        open={asking !== null}
        title={copy?.title ?? ''}
        description={
          <>
            <p>{copy?.description}</p>
            <p className="muted small">
              Product <strong>{product.name}</strong> <code className="mono">{product.id}</code>
            </p>
          </>
        }
        confirmLabel={copy?.confirmLabel ?? 'OK'}
        variant={copy?.destructive ? 'danger' : 'primary'}
        withReason
        reasonPlaceholder={
          asking === 'rotate-secret'
            ? 'e.g. secret pasted in a public issue'
            : asking === 'revoke'
              ? 'e.g. product discontinued'
              : 'e.g. build 2.1 package'
        }
        onConfirm={confirm}
        onClose={() => {
          setAsking(null)
          setExporting(false)
        }}
        testId="action-dialog"
      />
    </div>
  )
}
