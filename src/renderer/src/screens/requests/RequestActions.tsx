import type { RequestEntry } from '../../api/types'
import { Button } from '../../components/Button'
import { CopyButton } from '../../components/CopyButton'
import { useAction } from '../../components/use-action'
import { headerPrefix, requireApi } from '../../stores/connection'
import { useTester } from '../../stores/tester'
import { toast } from '../../stores/toasts'
import { curlOf } from './curl'
import { resendPlan } from './resend'

/** What QA does with one recorded request: copy it as a curl command (placeholders for secrets), send it again. */
export function RequestActions({ entry }: { entry: RequestEntry }) {
  const tester = useTester((state) => state.values)
  const { busy, run } = useAction<'resend'>()
  const plan = resendPlan(entry, tester, headerPrefix())
  return (
    <div className="button-row" data-testid="request-actions">
      <CopyButton value={curlOf(entry, requireApi().baseUrl)} label="Copy as curl" variant="secondary" />
      <Button
        size="sm"
        icon="play"
        busy={busy === 'resend'}
        disabled={!plan.ok}
        aria-describedby={plan.ok ? undefined : 'resend-why'}
        onClick={() =>
          void run('resend', async () => {
            if (!plan.ok) return
            const { method, path, headers, body } = plan
            const exchange = await requireApi().tester.resend({ method, path, headers, body })
            toast.success(
              `Sent again: ${exchange.response ? exchange.response.status : 'no response'}`,
              'Through the connection tester: the new row is marked "tester".'
            )
          })
        }
      >
        Send again
      </Button>
      {/* Said in the open, not in a tooltip: nothing here needs a hover to be read. */}
      {plan.ok ? null : (
        <p className="muted small request-actions__why" id="resend-why">
          {plan.reason}
        </p>
      )}
    </div>
  )
}
