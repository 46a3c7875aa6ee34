import { Field, TextInput } from '../../components/Field'
import type { FaultDraft } from './fault-draft'

/** Narrows a rule to requests carrying one value (a license key, an instance id): one customer's plugin fails, the rest work. */
export function FaultMatchFields({
  draft,
  error,
  onChange
}: {
  draft: FaultDraft
  error: string | undefined
  onChange: (patch: Partial<FaultDraft>) => void
}) {
  return (
    <>
      <Field label="Only when body field" error={error} className="fault-field fault-field--match">
        {(control) => (
          <TextInput
            {...control}
            className="mono"
            value={draft.matchField}
            placeholder="license_key"
            onChange={(event) => onChange({ matchField: event.target.value })}
            data-testid="fault-match-field"
          />
        )}
      </Field>
      <Field label="equals" className="fault-field fault-field--match">
        {(control) => (
          <TextInput
            {...control}
            className="mono"
            value={draft.matchEquals}
            placeholder={draft.matchField ? 'the value' : 'any request'}
            onChange={(event) => onChange({ matchEquals: event.target.value })}
            data-testid="fault-match-equals"
          />
        )}
      </Field>
    </>
  )
}
