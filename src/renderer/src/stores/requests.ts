import { create } from 'zustand'

import { toApiError } from '../api/errors'
import type { ApiError } from '../api/errors'
import type { RequestEntry, RequestFilters, RequestSummary } from '../api/types'
import { requireApi } from './connection'
import { failed, idle, loading, ready } from './resource'
import type { Resource } from './resource'

/** The inspector keeps this many rows in memory (the server's default ring); older ones are a "load older" away. */
export const MAX_ROWS = 5000
const PAGE_SIZE = 100

export type LiveState = 'off' | 'connecting' | 'live' | 'reconnecting'

/** What plugins, scripts and the connection tester sent: the UI's own calls left out (the default view). */
export const WITHOUT_UI_CALLS = 'client,tester'

/** The filters a QA engineer chose, as opposed to the default view (the source filter). */
export function hasChosenFilters(filters: RequestFilters): boolean {
  return Object.keys(filters).some((key) => key !== 'source')
}

export interface RequestsState {
  entries: RequestSummary[]
  listStatus: 'idle' | 'loading' | 'ready' | 'error'
  listError: ApiError | null
  nextBefore: number | null
  loadingOlder: boolean
  filters: RequestFilters
  selectedId: number | null
  detail: Resource<RequestEntry>
  live: LiveState
  paused: boolean
  /** Arrived while paused: shown when resumed. */
  held: RequestSummary[]
  load(): Promise<void>
  loadOlder(): Promise<void>
  setFilters(patch: Partial<RequestFilters>): void
  select(id: number | null): Promise<void>
  receive(entry: RequestSummary): void
  /** Entries from the live stream, applied at once (the screen batches them per frame). */
  receiveMany(entries: readonly RequestSummary[]): void
  setLive(live: LiveState): void
  setPaused(paused: boolean): void
  clear(): Promise<void>
}

/**
 * The server's filter rules, for entries that arrive on the stream. The text search (`q`) reads
 * the stored bodies, which only the server has: the stream applies it, so it is not checked here.
 */
export function matchesFilters(entry: RequestSummary, filters: RequestFilters): boolean {
  if (filters.source && !filters.source.split(',').includes(entry.source)) return false
  if (filters.surface && entry.surface !== filters.surface) return false
  if (filters.answeredBy && entry.answeredBy !== filters.answeredBy) return false
  if (filters.method && entry.method.toUpperCase() !== filters.method.toUpperCase()) return false
  if (filters.productId && entry.productId !== filters.productId) return false
  if (filters.path && !entry.path.toLowerCase().includes(filters.path.toLowerCase())) return false
  if (filters.status) {
    const wanted = filters.status.toLowerCase()
    const classMatch = /^([1-5])xx$/.exec(wanted)
    if (classMatch) {
      if (Math.floor(entry.status / 100) !== Number(classMatch[1])) return false
    } else if (String(entry.status) !== wanted) return false
  }
  return true
}

/** Newest first, each id once, at most MAX_ROWS. */
export function mergeEntries(
  current: readonly RequestSummary[],
  incoming: readonly RequestSummary[]
): RequestSummary[] {
  // The live stream's usual case: everything new is newer than the list. Prepend, no re-sort.
  let newest = -Infinity
  for (const entry of current) if (entry.id > newest) newest = entry.id
  if (incoming.every((entry, index) => entry.id > newest && (index === 0 || entry.id > incoming[index - 1]!.id))) {
    const sortedCurrent = current.every((entry, index) => index === 0 || entry.id < current[index - 1]!.id)
      ? current
      : [...current].sort((a, b) => b.id - a.id)
    return [...incoming]
      .reverse()
      .concat(sortedCurrent.slice(0, Math.max(0, MAX_ROWS - incoming.length)))
      .slice(0, MAX_ROWS)
  }
  const byId = new Map<number, RequestSummary>()
  for (const entry of current) byId.set(entry.id, entry)
  for (const entry of incoming) byId.set(entry.id, entry)
  return [...byId.values()].sort((a, b) => b.id - a.id).slice(0, MAX_ROWS)
}

export const useRequests = create<RequestsState>()((set, get) => ({
  entries: [],
  listStatus: 'idle',
  listError: null,
  nextBefore: null,
  loadingOlder: false,
  filters: { source: WITHOUT_UI_CALLS },
  selectedId: null,
  detail: idle(),
  live: 'off',
  paused: false,
  held: [],

  async load() {
    const filters = get().filters
    set({ listStatus: 'loading', listError: null })
    try {
      const page = await requireApi().control.requests({ ...filters, limit: PAGE_SIZE })
      // Filters changed meanwhile: a newer load owns the list.
      if (get().filters !== filters) return
      // Keep what the stream already delivered for these filters.
      const live = get().entries.filter((entry) => matchesFilters(entry, filters))
      set({ entries: mergeEntries(live, page.requests), nextBefore: page.nextBefore, listStatus: 'ready' })
    } catch (error) {
      set({ listStatus: 'error', listError: toApiError(error) })
    }
  },

  async loadOlder() {
    const { nextBefore, filters } = get()
    if (nextBefore === null) return
    set({ loadingOlder: true })
    try {
      const page = await requireApi().control.requests({ ...filters, limit: PAGE_SIZE, before: nextBefore })
      const known = new Set(get().entries.map((entry) => entry.id))
      set({
        entries: [...get().entries, ...page.requests.filter((entry) => !known.has(entry.id))],
        nextBefore: page.nextBefore
      })
    } catch (error) {
      set({ listError: toApiError(error) })
    } finally {
      set({ loadingOlder: false })
    }
  },

  setFilters(patch) {
    const filters: RequestFilters = { ...get().filters, ...patch }
    for (const key of Object.keys(filters) as (keyof RequestFilters)[]) {
      if (filters[key] === undefined || filters[key] === '') delete filters[key]
    }
    // A new text search cannot be checked here (the bodies are on the server): the list starts over.
    const kept = filters.q === get().filters.q ? get().entries.filter((entry) => matchesFilters(entry, filters)) : []
    set({ filters, entries: kept, held: [] })
    void get().load()
  },

  async select(id) {
    set({ selectedId: id, detail: id === null ? idle() : loading(undefined) })
    if (id === null) return
    try {
      const entry = await requireApi().control.request(id)
      if (get().selectedId === id) set({ detail: ready(entry) })
    } catch (error) {
      if (get().selectedId === id) set({ detail: failed(undefined, error) })
    }
  },

  receive(entry) {
    get().receiveMany([entry])
  },

  receiveMany(entries) {
    const filters = get().filters
    const matching = entries.filter((entry) => matchesFilters(entry, filters))
    if (matching.length === 0) return
    if (get().paused) {
      set({ held: mergeEntries(get().held, matching) })
      return
    }
    set({ entries: mergeEntries(get().entries, matching) })
  },

  setLive(live) {
    set({ live })
  },

  setPaused(paused) {
    if (!paused && get().held.length > 0) {
      set({ paused, entries: mergeEntries(get().entries, get().held), held: [] })
    } else {
      set({ paused })
    }
  },

  async clear() {
    await requireApi().control.clearRequests()
    set({ entries: [], held: [], nextBefore: null, selectedId: null, detail: idle() })
  }
}))
