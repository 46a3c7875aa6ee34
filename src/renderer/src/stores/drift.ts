import type { Static } from 'typebox'
import { create } from 'zustand'

import { entryDistance } from '../../../shared/contract/drift'
import type { InspectedExchange } from '../../../shared/contract/drift'
import type { DriftFlaggedResponse, DriftReportResponse } from '../../../shared/schemas/drift'
import { requireApi } from './connection'
import { idle, loadInto } from './resource'
import type { Resource } from './resource'

export type DriftReport = Omit<Static<typeof DriftReportResponse>, 'ok'>
export type DriftedExchange = Static<typeof DriftFlaggedResponse>['exchanges'][number]

export interface DriftState {
  report: Resource<DriftReport>
  /** The forwarded exchanges with findings, for the request inspector's marks. */
  drifted: Resource<DriftedExchange[]>
  load(): Promise<void>
  loadDrifted(): Promise<void>
  /** The report as Markdown, to attach to a bug. */
  markdown(): Promise<string>
  clear(): Promise<void>
}

/** The drift report (docs/upstream.md): where the upstream's answers depart from the emulator's contract. */
export const useDrift = create<DriftState>()((set, get) => ({
  report: idle(),
  drifted: idle(),

  async load() {
    await loadInto({ get, set }, 'report', async () => {
      const { ok: _ok, ...report } = await requireApi().control.drift()
      return report
    })
  },

  async loadDrifted() {
    await loadInto({ get, set }, 'drifted', () => requireApi().control.driftedRequests())
  },

  markdown: () => requireApi().control.driftMarkdown(),

  async clear() {
    await requireApi().control.clearDrift()
    await Promise.all([get().load(), get().loadDrifted()])
  }
}))

/** The drifted exchange an inspector entry shows, if any (paired as the server pairs them). */
export function driftOfEntry(
  drifted: readonly DriftedExchange[] | null,
  entry: InspectedExchange
): DriftedExchange | null {
  if (!drifted) return null
  let best: DriftedExchange | null = null
  let bestDistance = Number.POSITIVE_INFINITY
  for (const candidate of drifted) {
    const distance = entryDistance(entry, candidate)
    if (distance !== null && distance < bestDistance) {
      best = candidate
      bestDistance = distance
    }
  }
  return best
}
