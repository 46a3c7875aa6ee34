import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, SignJWT } from 'jose'
import type { CryptoKey, JWK } from 'jose'

import type { DriftFindingKind } from '../../src/shared/contract/drift'

/**
 * A stand-in for a real platform that drifts: a tiny HTTP server on 127.0.0.1 that passes each
 * request to a real emulator (its "platform") and hands back that emulator's answer, mutated as
 * `mutation` says, so that one validate call makes exactly one finding of that kind. With no
 * mutation it answers as the emulator does. Its JWKS is the emulator's, plus its own key (the
 * one a re-signed token is signed with).
 */
export interface DriftDouble {
  baseUrl: string
  mutation: DriftFindingKind | null
  /** Requests it has answered, by path. */
  calls: string[]
  close(): Promise<void>
}

const KID = 'drift-double-1'

export async function startDriftDouble(platformBaseUrl: string): Promise<DriftDouble> {
  const pair = await generateKeyPair('EdDSA', { crv: 'Ed25519' })
  const ownJwk: JWK = { ...(await exportJWK(pair.publicKey)), kid: KID, alg: 'EdDSA', use: 'sig' }
  const state: { mutation: DriftFindingKind | null; calls: string[] } = { mutation: null, calls: [] }

  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      void (async () => {
        const url = request.url ?? '/'
        state.calls.push(url.split('?')[0] ?? url)
        const headers: Record<string, string> = {}
        for (const [name, value] of Object.entries(request.headers)) {
          if (value === undefined || ['host', 'connection', 'content-length', 'transfer-encoding'].includes(name))
            continue
          headers[name] = Array.isArray(value) ? value.join(', ') : value
        }
        const method = request.method ?? 'GET'
        const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined
        const answer = await fetch(platformBaseUrl + url, {
          method,
          headers,
          body: method === 'GET' || method === 'HEAD' ? undefined : body
        })
        let status = answer.status
        const outHeaders: Record<string, string> = {}
        answer.headers.forEach((value, name) => {
          if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive'].includes(name))
            outHeaders[name] = value
        })
        let text = await answer.text()
        if (url.startsWith('/.well-known/jwks.json')) {
          const set = JSON.parse(text) as { keys: JWK[] }
          text = JSON.stringify({ ...set, keys: [...set.keys, ownJwk] })
        } else if (url.startsWith('/api/license/v1/validate') && state.mutation) {
          const mutated = await mutate(
            state.mutation,
            JSON.parse(text) as Record<string, unknown>,
            request.headers,
            pair.privateKey
          )
          status = mutated.status ?? status
          text = mutated.text
          if (mutated.contentType) outHeaders['content-type'] = mutated.contentType
        }
        response.writeHead(status, { ...outHeaders, 'content-length': String(Buffer.byteLength(text)) })
        response.end(method === 'HEAD' ? undefined : text)
      })().catch((error: unknown) => {
        response.writeHead(599, { 'content-type': 'text/plain' })
        response.end(`drift double: ${String(error)}`)
      })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    get mutation() {
      return state.mutation
    },
    set mutation(kind) {
      state.mutation = kind
    },
    calls: state.calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

/** A validate answer (200, VALID, with a license token) changed so that it shows one finding of `kind`. */
async function mutate(
  kind: DriftFindingKind,
  body: Record<string, unknown>,
  requestHeaders: Record<string, string | string[] | undefined>,
  key: CryptoKey
): Promise<{ status?: number; text: string; contentType?: string }> {
  const json = (value: unknown, status?: number) => ({ status, text: JSON.stringify(value) })
  const token = String(body.license_token)
  switch (kind) {
    case 'UNDOCUMENTED_STATUS':
      return json(body, 202)
    case 'MISSING_FIELD': {
      const { message: _message, ...rest } = body
      return json(rest)
    }
    case 'WRONG_TYPE':
      return json({ ...body, valid: 'true' })
    case 'UNKNOWN_FIELD':
      // It echoes the plugin secret the request sent: the report must not.
      return json({ ...body, upstream_only: { echoed: requestHeaders['x-svc-plugin-secret'] } })
    case 'UNKNOWN_ERROR_CODE':
      return json({ ok: false, error: 'CREDENTIALS_REJECTED', message: 'The platform refused these credentials.' }, 401)
    case 'MISSING_HEADER':
      // A 429 as the emulator's rate limit answers it, but without Retry-After.
      return json({ ok: false, error: 'RATE_LIMITED', message: 'Too many requests.', retryAfter: 1 }, 429)
    case 'NOT_JSON':
      return { text: '<html><body>Service busy</body></html>', contentType: 'text/html; charset=utf-8' }
    case 'TOKEN_SIGNATURE': {
      // The emulator's kid, a signature of another key.
      const [header, payload] = token.split('.')
      const forged = await new SignJWT(decodeJwt(token))
        .setProtectedHeader(decodeProtectedHeader(token) as never)
        .sign(key)
      return json({ ...body, license_token: `${header}.${payload}.${forged.split('.')[2]}` })
    }
    case 'TOKEN_CLAIMS': {
      const resigned = await new SignJWT({ ...decodeJwt(token), aud: 'app_not_the_one_sent' })
        .setProtectedHeader({ alg: 'EdDSA', kid: KID, typ: 'license+jwt' })
        .sign(key)
      return json({ ...body, license_token: resigned })
    }
  }
}
