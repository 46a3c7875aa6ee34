import { Button } from '../../components/Button'
import { useAction } from '../../components/use-action'
import { saveTextFile } from '../../platform/save-file'
import { requireApi } from '../../stores/connection'
import { useRequests } from '../../stores/requests'
import { toast } from '../../stores/toasts'

/** The newest this many matching requests go in a HAR file (the server's page limit). */
const HAR_LIMIT = 500

/** "Export HAR": the requests these filters show, as a HAR file (GET /_emulator/requests/har), redacted as shown. */
export function ExportHar() {
  const filters = useRequests((state) => state.filters)
  const shown = useRequests((state) => state.entries.length)
  const { busy, run } = useAction<'har'>()
  return (
    <Button
      size="sm"
      icon="download"
      variant="ghost"
      busy={busy === 'har'}
      disabled={shown === 0}
      onClick={() =>
        void run('har', async () => {
          const har = await requireApi().control.requestsHar({ ...filters, limit: HAR_LIMIT })
          const saved = await saveTextFile('emulator-requests.har', JSON.stringify(har, null, 2), 'application/json')
          if (saved) toast.success('HAR saved', `${har.log.entries.length} requests, redacted`)
        })
      }
      data-testid="export-har"
    >
      Export HAR
    </Button>
  )
}
