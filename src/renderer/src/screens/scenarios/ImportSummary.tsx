import type { ImportPreview } from '../../api/types'
import { KeyValue } from '../../components/Card'
import { formatOffset } from '../../format/date'
import { describeRule } from './fault-draft'

/** A section or setting name in words: "connectionStatuses" -> "connection statuses". */
const words = (name: string) => name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()

/** What an imported file holds, shown before it replaces the state: its counts, its clock, its fault rules, its settings. */
export function ImportSummary({ preview }: { preview: ImportPreview }) {
  const counts = Object.entries(preview.counts).filter(([, count]) => count > 0)
  const clock = 'now' in preview.clock ? `set to ${preview.clock.now}` : formatOffset(preview.clock.offsetS)
  return (
    <div className="stack stack--tight" data-testid="import-preview">
      <KeyValue
        items={[
          {
            label: 'Holds',
            value:
              counts.length === 0
                ? 'no data'
                : counts.map(([section, count]) => `${count} ${words(section)}`).join(', ')
          },
          { label: 'Clock', value: clock },
          {
            label: 'Fault rules',
            value:
              preview.faults.length === 0 ? (
                'none'
              ) : (
                <ul className="small">
                  {preview.faults.map((rule, index) => (
                    <li key={index}>{describeRule(rule)}</li>
                  ))}
                </ul>
              )
          },
          {
            label: 'Settings',
            value: preview.settings
              ? Object.entries(preview.settings)
                  .map(([name, value]) => `${words(name)}: ${String(value)}`)
                  .join(', ')
              : 'kept as they are'
          }
        ]}
      />
    </div>
  )
}
