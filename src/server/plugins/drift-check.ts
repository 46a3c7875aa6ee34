import { performance } from 'node:perf_hooks'
import fp from 'fastify-plugin'

import { documentedContract } from '../../core/drift/documented-operations'
import type { DocumentedContract } from '../../core/drift/documented-operations'
import { createDriftLog } from '../../core/drift/drift-report'
import type { DriftLog } from '../../core/drift/drift-report'
import { checkExchange } from '../../core/drift/exchange-check'
import { upstreamKeys } from '../../core/drift/upstream-keys'
import { redactText } from '../../core/redaction/redact'
import type { ForwardedExchange } from '../../core/upstream/forwarded-exchange'
import { credentialHeaderNames } from '../auth/credential-headers'

/** The drift check as the control plane reads it (docs/upstream.md, "The drift report"). */
export interface DriftCheck {
  readonly log: DriftLog
  /** Resolves once the checks of exchanges already handed over are done (at most `waitMs`). */
  settled(waitMs?: number): Promise<void>
  /** Resolves once the documented contract is built: the report's coverage lists its operations. */
  contractReady(): Promise<void>
}

declare module 'fastify' {
  interface FastifyInstance {
    drift: DriftCheck
  }
}

/** Where the upstream publishes its license-token keys, as the emulator does. */
const JWKS_PATH = '/.well-known/jwks.json'
/** Arrival times held for exchanges not yet handed over (one the forwarding never hands over is dropped in time). */
const MAX_PENDING_ARRIVALS = 1000

/**
 * Watches forwarded traffic (app.upstream's observers) and holds each upstream answer to the
 * contract this server documents: its own OpenAPI document, generated from the TypeBox schemas
 * the routes declare, so the emulator and the check can never disagree about the contract.
 */
export const driftCheck = fp(
  async (app) => {
    let contract: Promise<DocumentedContract> | null = null
    let built: DocumentedContract | null = null
    // Built on first use: every route has been registered by then.
    const contractNow = () =>
      (contract ??= app.openApiDocument().then((document) => (built = documentedContract(document))))
    const keyFor = upstreamKeys(async () => {
      const fetched = await app.upstream.fetch(JWKS_PATH)
      if (fetched.status !== 200) throw new Error(`JWKS answered ${fetched.status}`)
      return JSON.parse(fetched.body.toString('utf8')) as unknown
    })
    const log = createDriftLog({
      // The report's reader awaits contractReady() first.
      documented: () => built?.operations.map((operation) => operation.operationId) ?? [],
      credentialHeaders: () => {
        const names = credentialHeaderNames(app.settings.headerPrefix)
        return [names.pluginKey, names.pluginSecret, names.apiKey]
      },
      onChange: () => app.core.changes.announce({ kind: 'drift' })
    })
    const pending = new Set<Promise<void>>()

    // When each forwarded request arrived, read as the request log reads it (the system clock less
    // the time since the recorder first saw the request), so an inspector entry and its checked
    // exchange carry the same time (docs/upstream.md, "The drift report"); the forwarding's own
    // start comes later by whatever a fault rule held the request back. Read as the upstream's
    // answer is sent on, before the forwarding hands the exchange over.
    const arrivals = new Map<string, string>()
    app.addHook('onSend', (request, _reply, payload, done) => {
      const capture = request.inspectorCapture
      if (capture && request.upstreamRoute?.answer) {
        const clock = app.core.clock
        const elapsedMs = performance.now() - capture.startedAt
        arrivals.set(request.id, new Date(clock.now().getTime() - clock.offsetMs() - elapsedMs).toISOString())
        if (arrivals.size > MAX_PENDING_ARRIVALS) arrivals.delete(arrivals.keys().next().value as string)
      }
      done(null, payload)
    })

    const check = async (exchange: ForwardedExchange, arrivedAt: string | undefined) => {
      try {
        const checked = await checkExchange(exchange, await contractNow(), {
          appIdHeader: credentialHeaderNames(app.settings.headerPrefix).appId,
          keyFor
        })
        log.record(exchange, checked, arrivedAt)
      } catch (error) {
        log.unchecked(exchange, arrivedAt)
        // A check that fails is a defect of the check, never of the exchange: logged, not thrown into the proxy.
        app.log.warn(
          { requestId: exchange.requestId, err: { message: redactText(String((error as Error)?.message ?? error)) } },
          'drift check failed'
        )
      }
    }

    app.upstream.addObserver({
      observe(exchange) {
        const arrivedAt = arrivals.get(exchange.requestId)
        arrivals.delete(exchange.requestId)
        const running = check(exchange, arrivedAt).finally(() => pending.delete(running))
        pending.add(running)
      }
    })

    app.decorate('drift', {
      log,
      async settled(waitMs = 2_000) {
        if (pending.size === 0) return
        let timer: ReturnType<typeof setTimeout> | undefined
        await Promise.race([
          Promise.allSettled([...pending]),
          new Promise<void>((resolve) => {
            timer = setTimeout(resolve, waitMs)
          })
        ])
        clearTimeout(timer)
      },
      async contractReady() {
        await contractNow()
      }
    } satisfies DriftCheck)
  },
  { name: 'drift-check', dependencies: ['emulator-context', 'openapi', 'upstream-access'] }
)
