import { useState } from 'react'

import { Button } from '../../components/Button'
import { Field, TextInput } from '../../components/Field'
import { InlineError } from '../../components/States'
import { useAction } from '../../components/use-action'
import { toDateTimeLocalValue } from '../../format/date'
import { emulatorNow, useConnection } from '../../stores/connection'
import { useSettings } from '../../stores/settings'
import { toast } from '../../stores/toasts'

/** Set the emulator's now to an exact local date and time. */
export function ClockSetter() {
  const setClock = useSettings((state) => state.setClock)
  const offsetMs = useConnection((state) => state.clockOffsetMs)
  const [value, setValue] = useState(() => toDateTimeLocalValue(new Date(emulatorNow())))
  // The clock moved (+30 days, a reset, another window): the field shows the new now.
  const [shownOffsetMs, setShownOffsetMs] = useState(offsetMs)
  if (offsetMs !== shownOffsetMs) {
    setShownOffsetMs(offsetMs)
    setValue(toDateTimeLocalValue(new Date(emulatorNow())))
  }
  const { busy, error, run } = useAction<'set'>()
  return (
    <form
      className="inline-form"
      onSubmit={(event) => {
        event.preventDefault()
        const instant = new Date(value)
        if (Number.isNaN(instant.getTime())) return
        void run('set', async () => {
          await setClock({ now: instant.toISOString() })
          toast.info('Clock set', instant.toLocaleString())
        })
      }}
    >
      <Field label="Set the emulator's now" hint="Local time of this computer.">
        {(control) => (
          <TextInput
            {...control}
            type="datetime-local"
            value={value}
            onChange={(event) => setValue(event.target.value)}
            required
          />
        )}
      </Field>
      <Button type="submit" busy={busy !== null}>
        Set clock
      </Button>
      <InlineError error={error} />
    </form>
  )
}
