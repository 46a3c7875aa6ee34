import { useRef, useState } from 'react'

import type { ImportPreview } from '../../api/types'
import { Button } from '../../components/Button'
import { Card } from '../../components/Card'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { Checkbox } from '../../components/Field'
import { InlineError } from '../../components/States'
import { useAction } from '../../components/use-action'
import { saveTextFile } from '../../platform/save-file'
import { requireApi } from '../../stores/connection'
import { useSettings } from '../../stores/settings'
import { toast } from '../../stores/toasts'
import { ImportSummary } from './ImportSummary'

function stamp(date: Date): string {
  return date.toISOString().slice(0, 19).replace(/[:T]/g, '-')
}

/** The whole state as one scenario document: export, import (atomic), reset. */
export function StateCard() {
  const exportState = useSettings((state) => state.exportState)
  const importState = useSettings((state) => state.importState)
  const reset = useSettings((state) => state.reset)
  const fileInput = useRef<HTMLInputElement>(null)
  const [pending, setPending] = useState<{ name: string; document: unknown; preview: ImportPreview } | null>(null)
  const [confirmReset, setConfirmReset] = useState(false)
  const [includeRequests, setIncludeRequests] = useState(false)
  const { busy, error, run, fail, reset: clearError } = useAction<'export'>()

  const onFile = async (file: File | undefined) => {
    if (!file) return
    clearError()
    try {
      let document: unknown
      try {
        document = JSON.parse(await file.text()) as unknown
      } catch (cause) {
        throw new Error(`${file.name} is not valid JSON (${cause instanceof Error ? cause.message : String(cause)}).`)
      }
      // What it holds, before anything is replaced: a document the import would refuse is refused here.
      setPending({ name: file.name, document, preview: await requireApi().control.previewState(document) })
    } catch (cause) {
      fail(cause)
    } finally {
      if (fileInput.current) fileInput.current.value = ''
    }
  }

  return (
    <Card
      title="State"
      description="Export the whole state as a scenario document: the data, the credential audit trail, connection records, the clock offset, fault rules and settings (hashes, never plain secrets). Import one to reproduce it, or start empty."
      testId="state-card"
    >
      <div className="button-row">
        <Button
          icon="download"
          busy={busy === 'export'}
          onClick={() => {
            const fileName = `emulator-state-${stamp(new Date())}.json`
            void run('export', async () => {
              const document = await exportState({ includeRequests })
              const saved = await saveTextFile(fileName, `${JSON.stringify(document, null, 2)}\n`, 'application/json')
              // The desktop save dialog may rename it; the browser downloads under this name.
              if (saved)
                toast.success(
                  'State exported',
                  window.emulatorDesktop
                    ? `Saved where you chose (suggested name ${fileName}).`
                    : `Downloaded as ${fileName}.`
                )
            })
          }}
        >
          Export state
        </Button>
        <Checkbox
          label="With the request log"
          checked={includeRequests}
          onChange={(event) => setIncludeRequests(event.target.checked)}
          data-testid="export-include-requests"
        />
        <Button icon="up" onClick={() => fileInput.current?.click()}>
          Import state…
        </Button>
        <input
          ref={fileInput}
          type="file"
          accept="application/json,.json"
          className="visually-hidden"
          tabIndex={-1}
          aria-hidden="true"
          onChange={(event) => void onFile(event.target.files?.[0])}
          data-testid="import-file"
        />
        <Button variant="danger" icon="trash" onClick={() => setConfirmReset(true)}>
          Reset
        </Button>
      </div>
      <InlineError error={error} />
      <ConfirmDialog
        open={pending !== null}
        title="Import this scenario?"
        description={
          <>
            <p>
              <code className="mono">{pending?.name}</code> replaces the whole state atomically: data, request log,
              clock, fault rules (and the settings it names). If any part is invalid nothing changes.
            </p>
            {pending ? <ImportSummary preview={pending.preview} /> : null}
          </>
        }
        confirmLabel="Import"
        variant="danger"
        onClose={() => setPending(null)}
        onConfirm={async () => {
          if (!pending) return
          await importState(pending.document)
          toast.success('State imported', pending.name)
          setPending(null)
        }}
        testId="import-dialog"
      />
      <ConfirmDialog
        open={confirmReset}
        title="Reset the emulator?"
        description="Deletes every developer, product, credential, customer, license and logged request; clears fault rules and the clock offset. Signing keys and settings stay."
        confirmLabel="Reset everything"
        variant="danger"
        onClose={() => setConfirmReset(false)}
        onConfirm={async () => {
          await reset()
          toast.success('Emulator reset', 'All data is gone.')
          setConfirmReset(false)
        }}
        testId="reset-dialog"
      />
    </Card>
  )
}
