import { beforeAll, describe, expect, it } from 'vitest'

import { resellerOrder } from '../support/commerce'
import { useEmulator } from '../support/emulator'
import { pluginClient } from '../support/plugin-client'
import { buildTokenWorld, presentedHeaders, validTokens } from '../support/token-world'
import type { TokenSet } from '../support/token-world'

// docs/api.md section 1: no answer repeats a value that could be a credential. Every issued
// secret goes into every path parameter and every query parameter of every route (and after
// every path, making an unknown route), with and without the route's own token; no answer's
// body or headers may contain it.

interface Route {
  method: string
  url: string
  tokens: readonly string[]
}

describe('nothing secret is echoed', () => {
  let routes: Route[]
  let secrets: Record<string, string>
  let tokens: TokenSet
  let queryNames: Map<string, string[]>

  const emu = useEmulator()
  beforeAll(async () => {
    const world = await buildTokenWorld(emu)
    tokens = await validTokens(emu, world)
    const activated = await pluginClient(emu, world.vendorX.product).activate(world.buyer.licenseX, 'echo-device')
    const claim = (await resellerOrder(emu, world.vendorX.product.productId)).claimToken
    secrets = {
      pluginKey: world.vendorX.product.pluginKey,
      pluginSecret: world.vendorX.product.pluginSecret,
      developerJwt: tokens.developerJwt?.bearer as string,
      customerJwt: tokens.customerJwt?.bearer as string,
      libraryToken: tokens.libraryToken?.bearer as string,
      vendorLibraryToken: tokens.vendorLibraryToken?.bearer as string,
      downloadToken: tokens.downloadToken?.bearer as string,
      licenseToken: activated.body.license_token as string,
      claimToken: claim,
      adminToken: emu.adminToken
    }
    for (const [name, value] of Object.entries(secrets)) expect(value, name).toBeTruthy()
    // The query names each route declares, from the OpenAPI document the routes generate.
    const document = (await emu.app.openApiDocument()) as {
      paths: Record<string, Record<string, { parameters?: Array<{ in: string; name: string }> }>>
    }
    queryNames = new Map()
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const names = (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name)
        queryNames.set(`${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`, names)
      }
    }
    // The control plane last: a valid admin token there may reset the world the others read.
    routes = emu.app.routeTokens
      .filter((route) => route.method !== 'OPTIONS')
      .map((route) => ({ ...route }))
      .sort((a, b) => Number(a.url.startsWith('/_emulator')) - Number(b.url.startsWith('/_emulator')))
  })

  /** Every target a secret can take in one route: each path parameter, each query name, a path tail. */
  function targets(route: Route, secret: string): string[] {
    const encoded = encodeURIComponent(secret)
    const fill = (url: string) => url.replace(/:[A-Za-z]+/g, 'x').replace(/\*$/, 'x')
    const out: string[] = []
    for (const param of route.url.match(/:[A-Za-z]+/g) ?? []) out.push(fill(route.url.replace(param, encoded)))
    const names = queryNames.get(`${route.method} ${route.url}`) ?? []
    for (const name of [...names, 'unknown_field'])
      out.push(`${fill(route.url)}?${encodeURIComponent(name)}=${encoded}`)
    out.push(`${fill(route.url).replace(/\/$/, '')}/${encoded}`)
    // The event stream, once let in, never ends: a filter that fails validation answers first.
    return route.url === '/_emulator/requests/stream'
      ? out.map((target) => `${target}${target.includes('?') ? '&' : '?'}status=bogus`)
      : out
  }

  it('no answer of any route repeats a secret sent in a path or query position', async () => {
    const leaks: string[] = []
    let answers = 0
    for (const route of routes) {
      const own = route.tokens[0] as keyof TokenSet | undefined
      for (const auth of [own ? tokens[own] : undefined, undefined]) {
        const send = async (target: string) => {
          const headers: Record<string, string> = { ...presentedHeaders(auth) }
          const hasBody = !['GET', 'HEAD', 'DELETE'].includes(route.method)
          if (hasBody) headers['content-type'] = 'application/json'
          const response = await fetch(emu.baseUrl + target, {
            method: route.method,
            headers,
            body: hasBody ? '{}' : undefined
          })
          answers += 1
          return `${[...response.headers.entries()].map(([k, v]) => `${k}: ${v}`).join('\n')}\n${response.status}\n${await response.text()}`
        }
        // What the route answers with plain values: a secret it hands out by design (the library
        // lists its download token) is there already, and is no echo.
        const baseline = await send(targets(route, 'x')[0] ?? route.url)
        for (const [name, secret] of Object.entries(secrets)) {
          if (
            baseline.includes(secret) ||
            auth?.bearer === secret ||
            Object.values(auth?.headers ?? {}).includes(secret)
          )
            continue
          for (const target of targets(route, secret)) {
            const answer = await send(target)
            // The request's own credential, accepted (a library read with a download token hands that token back).
            const acceptedAsCredential = route.tokens.includes(name) && /\n2\d\d\n/.test(answer)
            if (answer.includes(secret) && !acceptedAsCredential)
              leaks.push(
                `${route.method} ${target.slice(0, 80)}… (${name}) with ${auth?.kind ?? 'no token'}: ${answer.split('\n').find((line) => /^\d{3}$/.test(line))}`
              )
          }
        }
      }
    }
    expect(leaks).toEqual([])
    expect(answers).toBeGreaterThan(1000)
  }, 300_000)
})
