import type { DeveloperRole } from '../../shared/contract/accounts'
import type { Store } from '../store/store'

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

/** The developers table: reads and writes, no rules. */
export interface DeveloperRepository {
  insert(developer: Developer): void
  byId(id: string): Developer | null
  emailTaken(email: string): boolean
  /** Oldest first. */
  all(): Developer[]
}

export function createDeveloperRepository(store: Store): DeveloperRepository {
  const insert = store.db.prepare('INSERT INTO developers (id, email, name, role, created_at) VALUES (?, ?, ?, ?, ?)')
  const byId = store.db.prepare('SELECT * FROM developers WHERE id = ?')
  const byEmail = store.db.prepare('SELECT id FROM developers WHERE email = ?')
  const all = store.db.prepare('SELECT * FROM developers ORDER BY created_at, rowid')
  return {
    insert: (d) => void insert.run(d.id, d.email, d.name, d.role, d.createdAt),
    byId(id) {
      const row = byId.get(id) as DeveloperRow | undefined
      return row ? toDeveloper(row) : null
    },
    emailTaken: (email) => byEmail.get(email) !== undefined,
    all: () => (all.all() as DeveloperRow[]).map(toDeveloper)
  }
}
