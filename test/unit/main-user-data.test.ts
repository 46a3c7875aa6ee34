import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

import { PRODUCT_NAME, resolveUserDataDir, USER_DATA_ENV } from '../../src/main/user-data'

describe('the user-data directory', () => {
  const appData = '/home/u/.config'

  it('is <appData>/Plugin License Emulator by default, in dev runs and packaged alike', () => {
    expect(resolveUserDataDir({ switchValue: '', env: {}, appData })).toBe(join(appData, PRODUCT_NAME))
  })

  it('follows the environment variable', () => {
    expect(resolveUserDataDir({ switchValue: '', env: { [USER_DATA_ENV]: '/tmp/profile' }, appData })).toBe(
      '/tmp/profile'
    )
    expect(resolveUserDataDir({ switchValue: '', env: { [USER_DATA_ENV]: '  ' }, appData })).toBe(
      join(appData, PRODUCT_NAME)
    )
  })

  it('follows --user-data-dir first, made absolute', () => {
    expect(resolveUserDataDir({ switchValue: '/tmp/switch', env: { [USER_DATA_ENV]: '/tmp/profile' }, appData })).toBe(
      '/tmp/switch'
    )
    expect(resolveUserDataDir({ switchValue: 'relative/dir', env: {}, appData })).toBe(resolve('relative/dir'))
  })
})
