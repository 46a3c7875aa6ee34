import { join } from 'node:path'
import { afterEach, beforeEach } from 'vitest'

import { openStore } from '../../src/core/store/store'
import type { Store, StoreOptions } from '../../src/core/store/store'
import { makeTempDir } from './temp-dir'

/** A fresh database file for each test of the calling describe block. */
export interface StoreFile {
  /** The file's path (emulator.db in the test's own folder). */
  readonly path: string
  /** Another file's path in the same folder. */
  pathOf(name: string): string
  /** Opens a store on the file (or on `options.path`); it is closed after the test. */
  open(options?: Partial<StoreOptions>): Store
}

/** Registers the beforeEach that makes the folder and the afterEach that closes every store opened and removes it. */
export function useStoreFile(label: string): StoreFile {
  let dir: ReturnType<typeof makeTempDir> | undefined
  const opened: Store[] = []
  beforeEach(() => {
    dir = makeTempDir(label)
  })
  afterEach(() => {
    for (const store of opened.splice(0)) store.close()
    dir?.remove()
    dir = undefined
  })
  const pathOf = (name: string): string => {
    if (!dir) throw new Error('useStoreFile: used outside a test of its describe block')
    return join(dir.path, name)
  }
  return {
    get path() {
      return pathOf('emulator.db')
    },
    pathOf,
    open(options = {}) {
      const store = openStore({ path: pathOf('emulator.db'), ...options })
      opened.push(store)
      return store
    }
  }
}
