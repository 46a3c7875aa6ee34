import { create } from 'zustand'

import { ApiError } from '../api/errors'
import type { DeveloperTokenSource, ManagementApi } from '../api/management'
import type { Developer, DeveloperRole, Session } from '../api/types'
import { emulatorNow, requireApi } from './connection'
import { readPreference, writePreference } from './persist'
import { idle, loadInto, ready } from './resource'
import type { Resource } from './resource'

export interface DevelopersState {
  developers: Resource<Developer[]>
  /** The developer the UI acts as on the management API. */
  actingId: string | null
  load(): Promise<void>
  create(input: { email: string; name?: string; role?: DeveloperRole }): Promise<Developer>
  setActing(id: string): void
}

/** Minted developer JWTs, per developer. In memory only: never stored, never logged. */
const sessions = new Map<string, Session>()
/** Renew a session this long before it expires. */
const RENEW_BEFORE_MS = 60_000

export function sessionFor(developerId: string): DeveloperTokenSource {
  return {
    async token() {
      const cached = sessions.get(developerId)
      if (cached && Date.parse(cached.expiresAt) - RENEW_BEFORE_MS > emulatorNow()) return cached.token
      const issued = await requireApi().control.developerSession(developerId)
      sessions.set(developerId, { token: issued.token, expiresAt: issued.expiresAt })
      return issued.token
    },
    invalidate() {
      sessions.delete(developerId)
    }
  }
}

/** Forget every minted session (after a reset or an import, developers may be gone). */
export function forgetSessions(): void {
  sessions.clear()
}

function chooseActing(list: Developer[], wanted: string | null): string | null {
  if (wanted && list.some((developer) => developer.id === wanted)) return wanted
  return list[0]?.id ?? null
}

export const useDevelopers = create<DevelopersState>()((set, get) => ({
  developers: idle(),
  actingId: readPreference('actingDeveloperId'),

  async load() {
    await loadInto({ get, set }, 'developers', () => requireApi().control.developers())
    const { developers } = get()
    if (developers.status !== 'ready' || !developers.data) return
    const actingId = chooseActing(developers.data, get().actingId)
    if (actingId !== get().actingId) {
      writePreference('actingDeveloperId', actingId)
      set({ actingId })
    }
  },

  async create(input) {
    const developer = await requireApi().control.createDeveloper(input)
    const list = [...(get().developers.data ?? []), developer]
    // The one just created is the one the person means to work as next (callers say so in a toast).
    writePreference('actingDeveloperId', developer.id)
    set({ developers: ready(list), actingId: developer.id })
    return developer
  },

  setActing(id) {
    writePreference('actingDeveloperId', id)
    set({ actingId: id })
  }
}))

export function selectActingDeveloper(state: DevelopersState): Developer | null {
  return state.developers.data?.find((developer) => developer.id === state.actingId) ?? null
}

/**
 * Resolves once the acting developer is known: at once when one is, else when the developers list
 * has loaded (or failed). A click right after a screen opened (the tester's reveal on a fresh
 * browser) came before that load and said NO_ACTING_DEVELOPER with a developer there to act as.
 */
export async function actingDeveloperSettled(): Promise<void> {
  const { developers, actingId, load } = useDevelopers.getState()
  if (actingId !== null || developers.status === 'ready' || developers.status === 'error') return
  if (developers.status === 'idle') return load()
  await new Promise<void>((resolve) => {
    const stop = useDevelopers.subscribe((state) => {
      if (state.developers.status === 'loading') return
      stop()
      resolve()
    })
  })
}

/** The management API as the acting developer (their JWT as Bearer). */
export function actingManagement(): ManagementApi {
  const actingId = useDevelopers.getState().actingId
  if (!actingId) {
    throw new ApiError({
      status: 0,
      code: 'NO_ACTING_DEVELOPER',
      message: 'Choose a developer to act as first (Developers & products).'
    })
  }
  return requireApi().management(sessionFor(actingId))
}
