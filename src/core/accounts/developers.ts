import type { Store } from '../store/store'
import type { Clock } from '../clock/clock'
import { DomainError } from '../errors/domain-error'
import { newId } from '../crypto/random'
import type { DeveloperRole } from './actor'

export interface Developer {
  id: string
  email: string
  name: string | null
  role: DeveloperRole
  createdAt: string
}

interface DeveloperRow {
  id: string
  email: string
  name: string | null
  role: DeveloperRole
  created_at: string
}

const toDeveloper = (row: DeveloperRow): Developer => ({
  id: row.id,
  email: row.email,
  name: row.name,
  role: row.role,
  createdAt: row.created_at
})

export interface DeveloperService {
  create(input: { email: string; name?: string | undefined; role?: DeveloperRole | undefined }): Developer
  find(id: string): Developer | null
  require(id: string): Developer
  list(): Developer[]
}

export function createDeveloperService(store: Store, clock: Clock): DeveloperService {
  const insert = store.db.prepare(
    'INSERT INTO developers (id, email, name, role, created_at) VALUES (?, ?, ?, ?, ?)'
  )
  const byId = store.db.prepare('SELECT * FROM developers WHERE id = ?')
  const byEmail = store.db.prepare('SELECT id FROM developers WHERE email = ?')
  const all = store.db.prepare('SELECT * FROM developers ORDER BY created_at, rowid')

  const find = (id: string): Developer | null => {
    const row = byId.get(id) as DeveloperRow | undefined
    return row ? toDeveloper(row) : null
  }

  return {
    create({ email, name, role = 'developer' }) {
      const normalisedEmail = email.trim()
      return store.transaction(() => {
        if (byEmail.get(normalisedEmail)) {
          throw new DomainError('DEVELOPER_EXISTS', `A developer with the email ${normalisedEmail} already exists.`)
        }
        const id = newId('dev')
        insert.run(id, normalisedEmail, name?.trim() || null, role, clock.nowIso())
        return find(id) as Developer
      })
    },
    find,
    require(id) {
      const developer = find(id)
      if (!developer) throw new DomainError('DEVELOPER_NOT_FOUND', `No developer has the id ${id}.`)
      return developer
    },
    list: () => (all.all() as DeveloperRow[]).map(toDeveloper)
  }
}
