import { join } from 'node:path'

import { projectRoot } from '../support/cli-process'

/** The CI scenario's fixed, documented values (docs/ci.md): the native suites run `serve` with it. */
export const CI_SCENARIO_FILE = join(projectRoot, 'resources', 'scenarios', 'ci.json')
export const CI = {
  productId: 'prod_demo_synth',
  developerId: 'dev_demo',
  customerId: 'cus_demo',
  appId: 'app_CiSynth00000000000000001',
  pluginKey: 'pk_CiSynthPluginKey00000000000001',
  pluginSecret: 'sk_CiSynthPluginSecret000000000000001',
  perpetual: 'CI001-PERPE-TUAL0-00000-00001',
  limitReached: 'CI007-LIMIT-REACH-ED000-00007'
}

/** The control plane of a running `serve` (faults, the test clock, purchases), as the suites drive it. */
export function emulatorControl(baseUrl: () => string, adminToken: string) {
  const control = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${baseUrl()}/_emulator${path}`, {
      method,
      headers: {
        'x-emulator-token': adminToken,
        ...(body === undefined ? {} : { 'content-type': 'application/json' })
      },
      body: body === undefined ? undefined : JSON.stringify(body)
    })
    // The control plane's answers are free-form JSON here; each test reads the fields it needs.
    const json = (await response.json()) as Record<string, any>
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`)
    return json
  }
  return {
    control,
    faults: (rules: unknown[]) => control('PUT', '/faults', { rules }),
    clock: (offsetS: number) => control('PUT', '/clock', { offsetS })
  }
}
