import { useState } from 'react'

import type { Preset } from '../../api/types'
import { Button } from '../../components/Button'
import { Card } from '../../components/Card'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { Skeleton, SkeletonLines } from '../../components/Skeleton'
import { EmptyState, ErrorState } from '../../components/States'
import { failedWithoutData } from '../../stores/resource'
import { useSettings } from '../../stores/settings'
import { toast } from '../../stores/toasts'

const SUMMARY: [string, string, string][] = [
  ['developers', 'developer', 'developers'],
  ['products', 'product', 'products'],
  ['customers', 'customer', 'customers'],
  ['licenses', 'license', 'licenses']
]

/** "1 developer, 1 product, 1 customer, 7 licenses": the counts people care about. */
function summarize(imported: Record<string, number>): string {
  return SUMMARY.filter(([key]) => (imported[key] ?? 0) > 0)
    .map(([key, one, many]) => `${imported[key]} ${imported[key] === 1 ? one : many}`)
    .join(', ')
}

/** Built-in scenarios: one click replaces the data with a known state. */
export function PresetsCard() {
  const presets = useSettings((state) => state.presets)
  const loadPresets = useSettings((state) => state.loadPresets)
  const loadPreset = useSettings((state) => state.loadPreset)
  const [asking, setAsking] = useState<Preset | null>(null)
  return (
    <Card
      title="Presets"
      description="Known states for plugin tests and QA. Loading one replaces all data and the request log, puts the clock back to the system time and clears fault rules (signing keys and settings stay)."
      testId="presets"
    >
      {failedWithoutData(presets) ? (
        <ErrorState error={presets.error} title="Could not list presets" onRetry={() => void loadPresets()} />
      ) : presets.data === null ? (
        <ul className="preset-list" aria-hidden="true">
          {[0, 1, 2, 3, 4].map((index) => (
            <li key={index} className="preset">
              <div className="preset__text">
                <Skeleton width="40%" height="1.1em" />
                <SkeletonLines lines={2} />
              </div>
              <Skeleton width={64} height={30} radius={6} />
            </li>
          ))}
        </ul>
      ) : presets.data.length === 0 ? (
        <EmptyState compact title="No presets" />
      ) : (
        <ul className="preset-list">
          {presets.data.map((preset) => (
            <li key={preset.name} className="preset" data-testid={`preset-${preset.name}`}>
              <div className="preset__text">
                <p className="strong">{preset.title}</p>
                <p className="muted small">{preset.description}</p>
              </div>
              <Button size="sm" onClick={() => setAsking(preset)} aria-label={`Load preset ${preset.title}`}>
                Load
              </Button>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={asking !== null}
        title={`Load “${asking?.title ?? ''}”?`}
        description="Every developer, product, credential, customer, license and logged request is replaced by the preset's data; the clock goes back to the system time and fault rules are cleared."
        confirmLabel="Replace data"
        variant="danger"
        onClose={() => setAsking(null)}
        onConfirm={async () => {
          if (!asking) return
          const imported = await loadPreset(asking.name)
          toast.success(`Preset loaded: ${asking.title}`, summarize(imported))
          setAsking(null)
        }}
        testId="preset-dialog"
      />
    </Card>
  )
}
