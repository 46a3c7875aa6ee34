import { useState } from 'react'

import { Button } from '../../components/Button'
import { CopyButton } from '../../components/CopyButton'
import { Dialog } from '../../components/Dialog'
import { Icon } from '../../components/Icon'
import { SecretValue } from '../../components/SecretValue'
import { navigate } from '../../navigation/router'
import { useProducts } from '../../stores/products'
import { useTester } from '../../stores/tester'
import { ACTION_COPY } from './action-copy'
import { ExportConfig } from './ExportConfig'

/**
 * The full material right after create, ensure-that-created, reveal or rotate. Shown once: the
 * values leave memory when the dialog closes. Copy buttons per value, and the package config
 * export, because this is the only moment the secret is in hand.
 */
export function RevealDialog() {
  const revealed = useProducts((state) => state.revealed)
  const dismiss = useProducts((state) => state.dismissRevealed)
  const product = useProducts((state) => state.products.data?.find((p) => p.id === revealed?.productId) ?? null)
  const applyMaterial = useTester((state) => state.applyMaterial)
  // Escape or the close button asks first: closing loses the secret for good. "Done" does not ask.
  const [confirmingClose, setConfirmingClose] = useState(false)
  const close = () => {
    setConfirmingClose(false)
    dismiss()
  }

  const title = revealed ? (ACTION_COPY[revealed.action].revealTitle ?? 'Credential') : ''
  // The real platform shows a secret once; this emulator keeps a sealed copy when it has a runtime key.
  const recoverable = revealed?.credential.hasRecoverableSecret === true

  return (
    <Dialog
      open={revealed !== null}
      onClose={() => setConfirmingClose(true)}
      title={title}
      size="lg"
      testId="reveal-dialog"
      description={
        revealed ? (
          <div className="callout callout--warning" data-testid="reveal-warning">
            <Icon name="alert" size={18} />
            <div>
              <p className="strong">
                {recoverable
                  ? 'Copy the plugin secret now: once this dialog closes, only Reveal secret shows it again, and each reveal is recorded in the audit trail.'
                  : 'Copy the plugin secret now: it will not be shown again.'}
              </p>
              <p className="small">
                {recoverable
                  ? 'The emulator keeps it sealed under its runtime key; the real platform shows a secret only once, so treat it as shown once.'
                  : 'Only its hash is kept. If it is lost, rotate the secret and regenerate the package.'}{' '}
                Never log it or ask a customer to type it.
              </p>
            </div>
          </div>
        ) : null
      }
      footer={
        confirmingClose ? (
          <div
            className="reveal-confirm"
            role="alertdialog"
            aria-label="Close without the secret?"
            data-testid="reveal-confirm-close"
          >
            <p className="strong">
              {recoverable
                ? 'Close? Only a new reveal (recorded in the audit trail) shows the secret again.'
                : 'Close? The plugin secret will not be shown again.'}
            </p>
            <div className="button-row">
              <Button variant="primary" onClick={() => setConfirmingClose(false)} needsServer={false} autoFocus>
                Keep it open
              </Button>
              <Button variant="danger" onClick={close} needsServer={false}>
                Close without it
              </Button>
            </div>
          </div>
        ) : (
          <>
            <Button
              icon="play"
              onClick={() => {
                if (!revealed || !product) return
                applyMaterial(
                  {
                    productId: revealed.productId,
                    appId: revealed.appId,
                    pluginKey: revealed.pluginKey,
                    pluginSecret: revealed.pluginSecret
                  },
                  `From the ${title.toLowerCase()} dialog of ${product.name}.`
                )
                close()
                navigate('tester')
              }}
            >
              Test in connection tester
            </Button>
            <Button variant="primary" onClick={close} needsServer={false} data-autofocus>
              Done
            </Button>
          </>
        )
      }
    >
      {revealed ? (
        <div className="stack stack--loose">
          <dl className="reveal-values">
            <div className="reveal-values__row">
              <dt>Product ID</dt>
              <dd>
                <code className="mono">{revealed.productId}</code>
                <CopyButton value={revealed.productId} what="product ID" />
              </dd>
            </div>
            <div className="reveal-values__row">
              <dt>App ID</dt>
              <dd>
                <code className="mono" data-testid="reveal-app-id">
                  {revealed.appId}
                </code>
                <CopyButton value={revealed.appId} what="App ID" />
              </dd>
            </div>
            <div className="reveal-values__row">
              <dt>Plugin key</dt>
              <dd>
                <SecretValue value={revealed.pluginKey} what="plugin key" testId="reveal-key" />
              </dd>
            </div>
            <div className="reveal-values__row reveal-values__row--secret">
              <dt>Plugin secret</dt>
              <dd>
                <SecretValue value={revealed.pluginSecret} what="plugin secret" testId="reveal-secret" />
              </dd>
            </div>
          </dl>
          {product ? <ExportConfig material={revealed} product={product} /> : null}
        </div>
      ) : null}
    </Dialog>
  )
}
