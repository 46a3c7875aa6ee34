import type { ForwardedExchangeObserver } from '../../core/upstream/forwarded-exchange'

/** The upstream setting (docs/upstream.md): where the service API is forwarded, and which routes. */
export interface UpstreamSetting {
  /** The upstream's base URL, null when forwarding is off. */
  readonly url: string | null
  /** Path patterns in the fault rules' syntax. */
  readonly routes: readonly string[]
}

/** An answer fetched from the upstream by the emulator itself (the drift check's JWKS). */
export interface UpstreamFetched {
  readonly status: number
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>
  readonly body: Buffer
}

/**
 * What the forwarding surface offers the rest of the server (decorated as `app.upstream`): the
 * setting in force, a fetch over the same connection settings (TLS CAs, timeouts) as forwarded
 * calls, and the observers handed each completed exchange.
 */
export interface UpstreamAccess {
  current(): UpstreamSetting
  /** Replaces the setting (PUT /_emulator/upstream); VALIDATION_ERROR names a bad field. Announced on the change feed. */
  set(setting: { url: string | null; routes?: readonly string[] | null | undefined }): UpstreamSetting
  fetch(path: string): Promise<UpstreamFetched>
  addObserver(observer: ForwardedExchangeObserver): void
}

declare module 'fastify' {
  interface FastifyInstance {
    upstream: UpstreamAccess
  }
}
