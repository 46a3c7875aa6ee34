import { DomainError } from '../errors/domain-error'

/** What the disk or another process can do to a write (docs/api.md section 1, "Storage faults"). */
export type StorageFaultCode = 'STORAGE_FULL' | 'STORAGE_READ_ONLY' | 'STORAGE_BUSY'

/** How long a client should wait before trying a refused write again, in seconds (`Retry-After`). */
export const STORAGE_RETRY_AFTER_S = 1

/** The storage fault a SQLite error is, by its extended code; null for anything else (a constraint, a defect). */
export function storageFaultOf(error: unknown): StorageFaultCode | null {
  const code = (error as { code?: unknown } | null)?.code
  if (typeof code !== 'string') return null
  // ENOSPC and max_page_count alike surface as SQLITE_FULL.
  if (code === 'SQLITE_FULL') return 'STORAGE_FULL'
  // An I/O error (a file system remounted read-only after errors, an immutable file, a failing
  // disk): the database cannot be written, which is what a client and the health banner need to know.
  if (code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_IOERR')) return 'STORAGE_READ_ONLY'
  // The file (or its -wal, -shm) cannot be opened or created: a folder without write permission.
  if (code.startsWith('SQLITE_CANTOPEN')) return 'STORAGE_READ_ONLY'
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return 'STORAGE_BUSY'
  return null
}

/** The domain error of a storage fault: the message names the database and what to do. */
export function storageError(
  code: StorageFaultCode,
  databasePath: string,
  busyTimeoutMs: number,
  message = storageMessage(code, databasePath, busyTimeoutMs)
): DomainError {
  return new DomainError(code, message, {
    details: code === 'STORAGE_BUSY' ? { retryAfter: STORAGE_RETRY_AFTER_S } : {}
  })
}

export function storageMessage(code: StorageFaultCode, databasePath: string, busyTimeoutMs: number): string {
  switch (code) {
    case 'STORAGE_FULL':
      return `The disk holding ${databasePath} is full: nothing was changed. Free space on that disk, then try again; everything saved before is intact.`
    case 'STORAGE_READ_ONLY':
      return `${databasePath} cannot be written (a read-only file, folder or mount, or the disk refused the write): nothing was changed. Make it writable, or serve another --db, then try again.`
    case 'STORAGE_BUSY':
      return `Another program holds the write lock of ${databasePath} (a sqlite3 shell or a database viewer inside a transaction?): the write waited ${busyTimeoutMs / 1000} s and nothing was changed. End that program's transaction, then try again.`
  }
}

/** Why every write fails once the file at the database's path is no longer the one open (./database-file-watch.ts). */
export function databaseGoneMessage(databasePath: string): string {
  return `${databasePath} was deleted, moved or replaced while the emulator ran: writes are refused, as they would go to a file no longer at that path (and, if it was deleted, be lost when the emulator stops). What it held still answers until then: export it (GET /_emulator/state, or Export state on the Scenarios & settings screen) if you need it, then restart the emulator to open the file at that path.`
}

/** An episode of writes failing for storage: since when, and why. */
export interface StorageFault {
  code: StorageFaultCode
  message: string
  /** ISO time (system clock) of the first failure of the episode. */
  since: string
  /** Only a restart ends it: the database file was deleted, moved or replaced while the emulator ran. */
  restartNeeded?: true
}

/**
 * Whether writes currently fail for storage: set by the first failing write of an episode,
 * cleared by the next write that succeeds. Listeners hear each start and each end once, so the
 * server logs one line per episode and the UI shows one banner, not one per request.
 */
export interface StorageHealth {
  current(): StorageFault | null
  /** A write failed for storage; `message` when the code's own does not say why (a deleted database). */
  failed(code: StorageFaultCode, message?: string, options?: { restartNeeded?: boolean }): void
  succeeded(): void
  onChange(listener: (fault: StorageFault | null, ended: StorageFault | null) => void): () => void
}

export function createStorageHealth(databasePath: string, busyTimeoutMs: number): StorageHealth {
  let fault: StorageFault | null = null
  const listeners = new Set<(fault: StorageFault | null, ended: StorageFault | null) => void>()
  const tell = (ended: StorageFault | null) => {
    for (const listener of listeners) {
      try {
        listener(fault, ended)
      } catch {
        // A broken listener must not fail the write that reported.
      }
    }
  }
  return {
    current: () => fault,
    failed(code, message = storageMessage(code, databasePath, busyTimeoutMs), options = {}) {
      if (fault?.code === code && fault.message === message) return
      const ended = fault
      fault = {
        code,
        message,
        since: new Date().toISOString(),
        ...(options.restartNeeded ? { restartNeeded: true } : {})
      }
      tell(ended)
    },
    succeeded() {
      if (fault === null) return
      const ended = fault
      fault = null
      tell(ended)
    },
    onChange(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    }
  }
}
