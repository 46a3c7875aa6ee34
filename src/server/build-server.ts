import { existsSync } from 'node:fs'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { join } from 'node:path'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Fastify from 'fastify'
import type { FastifyInstance, FastifyReply } from 'fastify'

import packageJson from '../../package.json'
import { createClock } from '../core/clock/clock'
import { createEmulatorCore } from '../core/emulator-core'
import { redactUrl } from '../core/redaction/redact'
import { openStore } from '../core/store/store'
import { tokenAuth } from './auth/token-auth'
import { handleClientError } from './errors/client-error'
import { MANAGEMENT_PREFIX } from './errors/credential-recovery'
import { TransportError } from './errors/transport-codes'
import { nodeHttp } from './http/node-http'
import { requestLogWorkerEntry } from './inspector/request-log-worker-entry'
import { refuseEncodedBodies } from './plugins/content-coding'
import { deferredSerializers } from './plugins/deferred-serializers'
import { driftCheck } from './plugins/drift-check'
import { emulatorContext } from './plugins/emulator-context'
import { errorHandling } from './plugins/error-handling'
import { faultInjection } from './plugins/fault-injection'
import { emptyTolerantJsonParser } from './plugins/json-body'
import { acceptJsonBodiesOnly, noCoercionValidators } from './plugins/no-coercion-validation'
import { openApi } from './plugins/openapi'
import { requestRecorder } from './plugins/request-recorder'
import { storageWrites } from './plugins/storage-writes'
import { tolerantRequests } from './plugins/tolerant-requests'
import { trustedOrigins } from './plugins/trusted-origins'
import { webViewCors } from './plugins/web-view-cors'
import { recordingObserver } from './recordings/recording-observer'
import { replayPlugin } from './recordings/replay-plugin'
import { controlPlaneRoutes } from './routes/control-plane'
import { developerPluginKeysRoutes } from './routes/developer-plugin-keys'
import { downloadRoutes } from './routes/downloads'
import { homePageRoutes } from './routes/home-page'
import { legacyPluginKeyRoutes } from './routes/legacy-plugin-keys'
import { libraryRoutes } from './routes/library'
import { licenseV1Routes } from './routes/license-v1'
import { pluginConnectionRoutes } from './routes/plugin-connections'
import { rendererRoutes } from './routes/renderer'
import { supportPageRoutes } from './routes/support-page'
import { wellKnownRoutes } from './routes/well-known'
import { DEFAULT_BODY_LIMIT, DEFAULT_HEADER_PREFIX, DEFAULT_PORT } from './server-options'
import type { ServerOptions } from './server-options'
import { upstreamAccess, upstreamForwarding } from './upstream/upstream-plugin'

export const EMULATOR_VERSION: string = packageJson.version

/** The longest request URL (path and query) served; longer is 414 URI_TOO_LONG. */
export const MAX_URL_BYTES = 8 * 1024

/** Fastify's default keep-alive (its docs: longer than common proxies' 60 s idle timeouts). */
const FASTIFY_KEEP_ALIVE_TIMEOUT_MS = 72_000

/**
 * Builds the emulator's Fastify app over its own SQLite store. The caller listens; closing the
 * app closes the store. The same function backs `serve`, the desktop app and the tests.
 */
export async function buildServer(options: ServerOptions): Promise<FastifyInstance> {
  const store = openStore({
    path: options.databasePath,
    nativeBinding: options.nativeBinding,
    checkpointInBackground: true,
    busyTimeoutMs: options.storageBusyTimeoutMs
  })
  const clock = options.clock ?? createClock()
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT

  const app = Fastify<Server, IncomingMessage, ServerResponse>({
    bodyLimit,
    // close() must not wait on idle keep-alive sockets (a quitting desktop app, a test teardown);
    // with 'idle', requests in flight still get their answer.
    forceCloseConnections: options.closeConnections === 'idle' ? 'idle' : true,
    logger: options.log
      ? {
          level: options.log.level ?? 'info',
          ...(options.log.stream ? { stream: options.log.stream } : {}),
          // Only method, redacted URL and status: headers and bodies carry credentials.
          serializers: {
            req: (req: { method: string; url: string; id: string }) => ({
              method: req.method,
              url: redactUrl(req.url),
              id: req.id
            }),
            res: (res: { statusCode: number }) => ({ statusCode: res.statusCode })
          }
        }
      : false,
    // Path parameters are as long as the request line allows (Node's parser caps it): each route's
    // params schema then refuses an over-long one as VALIDATION_ERROR naming the parameter,
    // instead of the router answering "no route".
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 16 * 1024 },
    schemaController: {
      compilersFactory: { buildValidator: noCoercionValidators, buildSerializer: deferredSerializers }
    },
    // What Node's parser refuses (bad framing, header overflow) still leaves in the contract's shape.
    clientErrorHandler: handleClientError,
    // Node would answer a Host-less HTTP/1.1 request with an empty 400 of its own; the hook below
    // answers it in the contract's shape instead.
    // Node's server with Fastify's own timeouts: Fastify sets them only on a server it creates,
    // and Node's 5 s keep-alive would close idle sockets under clients that reuse them.
    serverFactory: (handler) => {
      const server = nodeHttp.createServer({ requireHostHeader: false }, handler)
      server.keepAliveTimeout = FASTIFY_KEEP_ALIVE_TIMEOUT_MS
      server.requestTimeout = 0
      server.setTimeout(0)
      return server
    },
    // Errors Fastify raises before routing (a malformed percent-encoding, an over-long path
    // parameter) still leave in the contract's shape.
    frameworkErrors: (error, _request, reply) => {
      // Typed loosely by Fastify before the type provider applies; the reply is a plain one.
      const plain = reply as unknown as FastifyReply
      void plain
        .code(error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400)
        .type('application/json; charset=utf-8')
        .send(
          error.code === 'FST_ERR_MAX_PARAM_LENGTH'
            ? { ok: false, error: 'URI_TOO_LONG', message: 'The request URL is longer than this server accepts.' }
            : { ok: false, error: 'VALIDATION_ERROR', message: 'The request URL is not valid.' }
        )
    }
  }).withTypeProvider<TypeBoxTypeProvider>()

  let listeningBaseUrl = options.publicBaseUrl ?? `http://127.0.0.1:${DEFAULT_PORT}`
  app.addHook('onListen', async () => {
    const address = app.server.address()
    if (!options.publicBaseUrl && address && typeof address === 'object') {
      const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
      listeningBaseUrl = `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${address.port}`
    }
  })

  try {
    const core = await createEmulatorCore({
      store,
      clock,
      runtimeKey: options.runtimeKey,
      apiBaseUrl: () => listeningBaseUrl,
      licenseTokenTtlS: options.licenseTokenTtlS,
      requestLogCapacity: options.requestLogCapacity,
      requestLogWorker: requestLogWorkerEntry,
      headerPrefix: options.headerPrefix ?? DEFAULT_HEADER_PREFIX,
      strict: options.strict ?? false
    })
    await app.register(emulatorContext, {
      core,
      settings: {
        // The runtime settings live in the core (a scenario carries them); every surface reads them here.
        get headerPrefix() {
          return core.settings.get().headerPrefix
        },
        get strict() {
          return core.settings.get().strict
        },
        adminToken: options.adminToken,
        trustedOrigins: options.trustedOrigins ?? [],
        version: options.version ?? EMULATOR_VERSION,
        startedAt: Date.now()
      }
    })
    app.addHook('onClose', async () => {
      core.changes.close()
      const unwritten = core.requests.close()
      if (unwritten > 0) {
        // Storage still refused writes (a full disk, a held lock): say what the inspector lost.
        app.log.error(
          { requests: unwritten },
          'request inspector: storage still refused writes at close: the newest requests are not in the log'
        )
      }
      store.close()
    })
    app.addHook('onRequest', async (request) => {
      // docs/api.md section 1: a URL over 8 KiB is 414 (past Node's 16 KiB header limit, Node answers 431 first).
      if (request.raw.url !== undefined && request.raw.url.length > MAX_URL_BYTES) {
        throw new TransportError('URI_TOO_LONG', 'The request URL is longer than this server accepts (8 KiB).')
      }
      if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
        throw new TransportError('MALFORMED_REQUEST', 'An HTTP/1.1 request needs a Host header.')
      }
    })
    // Bodies are checked as sent (no coercion: noCoercionValidators, above), and JSON bodies only.
    acceptJsonBodiesOnly(app)
    refuseEncodedBodies(app)
    app.decorateRequest('rawBody', null)
    app.removeContentTypeParser('application/json')
    app.addContentTypeParser(
      'application/json',
      { parseAs: 'string', bodyLimit },
      emptyTolerantJsonParser(app.getDefaultJsonParser('error', 'error'))
    )

    // A POST or PUT with no body is an empty object: optional bodies then validate as written.
    app.addHook('preValidation', async (request) => {
      if (request.body === undefined && (request.method === 'POST' || request.method === 'PUT')) request.body = {}
    })
    await app.register(tolerantRequests)
    await app.register(errorHandling)
    await app.register(openApi)
    await app.register(tokenAuth)
    await app.register(webViewCors)
    await app.register(trustedOrigins)
    await app.register(requestRecorder)
    // The forwarding decision comes before the fault injector (a rule's stage needs it), the
    // forwarding itself after it (a `before` rule has answered or waited by then).
    await app.register(upstreamAccess, { upstream: options.upstream })
    await app.register(faultInjection)
    await app.register(storageWrites)
    // Before forwarding and the routes: a replayed answer is given before either would act.
    await app.register(replayPlugin, { initial: options.replay })
    await app.register(upstreamForwarding)
    // These watch what the forwarding hands its observers: registered after it.
    await app.register(driftCheck)
    await app.register(recordingObserver)

    await app.register(developerPluginKeysRoutes, { prefix: MANAGEMENT_PREFIX })
    await app.register(pluginConnectionRoutes, { prefix: '/api/plugin-connections' })
    await app.register(legacyPluginKeyRoutes)
    await app.register(libraryRoutes, { prefix: '/api/library' })
    await app.register(licenseV1Routes, { prefix: '/api/license/v1' })
    await app.register(downloadRoutes, { prefix: '/api/downloads' })
    await app.register(supportPageRoutes)
    await app.register(wellKnownRoutes)
    await app.register(controlPlaneRoutes, { prefix: '/_emulator' })
    if (options.rendererDir && existsSync(join(options.rendererDir, 'index.html'))) {
      await app.register(rendererRoutes, { root: options.rendererDir })
    } else {
      await app.register(homePageRoutes)
    }
    await app.ready()
  } catch (error) {
    await app.close().catch(() => undefined)
    store.close()
    throw error
  }
  return app
}
