import type { DeveloperRole } from '../../shared/contract/accounts'
import type { Clock } from '../clock/clock'
import { newId } from '../crypto/random'
import { DomainError } from '../errors/domain-error'
import { shownId } from '../redaction/shown-id'
import type { Store } from '../store/store'
import type { DeveloperActor } from './actor'
import { createDeveloperRepository } from './developer-repository'
import type { Developer } from './developer-repository'

export type { Developer } from './developer-repository'

export interface DeveloperService {
  create(input: { email: string; name?: string | undefined; role?: DeveloperRole | undefined }): Developer
  find(id: string): Developer | null
  require(id: string): Developer
  /** The developer as an actor (as their session resolves them); DEVELOPER_NOT_FOUND when there is none. */
  actor(id: string): DeveloperActor
  list(): Developer[]
}

/** Developer accounts: one per email. */
export function createDeveloperService(store: Store, clock: Clock): DeveloperService {
  const developers = createDeveloperRepository(store)
  function require(id: string): Developer {
    const developer = developers.byId(id)
    if (!developer) throw new DomainError('DEVELOPER_NOT_FOUND', `No developer has the id ${shownId(id, 'dev')}.`)
    return developer
  }
  return {
    create({ email, name, role = 'developer' }) {
      const normalisedEmail = email.trim()
      return store.transaction(() => {
        if (developers.emailTaken(normalisedEmail)) {
          throw new DomainError('DEVELOPER_EXISTS', `A developer with the email ${normalisedEmail} already exists.`)
        }
        const developer: Developer = {
          id: newId('dev'),
          email: normalisedEmail,
          name: name?.trim() || null,
          role,
          createdAt: clock.nowIso()
        }
        developers.insert(developer)
        return developer
      })
    },
    find: (id) => developers.byId(id),
    require,
    actor(id) {
      const developer = require(id)
      return { kind: 'developer', developerId: developer.id, role: developer.role }
    },
    list: () => developers.all()
  }
}
