import { Button } from '../../components/Button'
import { useAction } from '../../components/use-action'
import { useSettings } from '../../stores/settings'
import { toast } from '../../stores/toasts'

/**
 * "Go to the day it lapses", as Stripe's test clocks do: moves the emulator clock to the end the
 * server answered (a trial's or a license's expiry, a subscription's period or grace end), so the
 * lapse is seen at once in the library, the tester and the plugin.
 */
export function GoToLapse({ at, what, testId }: { at: string; what: string; testId?: string }) {
  const setClock = useSettings((state) => state.setClock)
  const { busy, run } = useAction()
  return (
    <Button
      size="sm"
      variant="ghost"
      className="go-to-lapse"
      busy={busy === 'go'}
      data-testid={testId}
      onClick={() =>
        void run('go', async () => {
          await setClock({ now: at })
          toast.info('Clock moved to the day it lapses', what)
        }).then((failure) => {
          if (failure) toast.error('Could not move the clock', failure.message)
        })
      }
    >
      Go to that day
    </Button>
  )
}
