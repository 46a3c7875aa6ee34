/**
 * One exchange the emulator forwarded to the upstream (the real platform, docs/upstream.md), as
 * the forwarding layer hands it to whatever watches real traffic (the drift check, recordings).
 *
 * Headers and bodies are as they crossed the wire, secrets included: a consumer redacts (or
 * fingerprints) before it stores or shows anything.
 */
/** The size and SHA-256 of a whole body, counted as it streamed through (decompressed, as kept). */
export interface StreamedBodyDigest {
  readonly bytes: number
  readonly sha256: string
}

export interface ForwardedExchange {
  /** The emulator's request id (the inspector entry's id). */
  readonly requestId: string
  readonly method: string
  /** The path as the client sent it, without the query string. */
  readonly path: string
  /** The raw query string without its '?', '' when there was none. */
  readonly rawQuery: string
  readonly requestHeaders: Readonly<Record<string, string | readonly string[] | undefined>>
  /** The request body's bytes, null when there was none. */
  readonly requestBody: Buffer | null
  /** The upstream's base URL the exchange went to. */
  readonly upstreamUrl: string
  readonly status: number
  readonly responseHeaders: Readonly<Record<string, string | readonly string[] | undefined>>
  /**
   * A decompressed copy of the answer's body (the client got the bytes untouched), null when it
   * had none. Capped: `responseBodyTruncated` says a longer body was cut.
   */
  readonly responseBody: Buffer | null
  readonly responseBodyTruncated: boolean
  /**
   * The size and SHA-256 of each whole body, counted over every byte as it streamed (the copies
   * above stop at 1 MiB); null when there was none or it could not be read (an unknown encoding).
   */
  readonly requestBodyWhole: StreamedBodyDigest | null
  readonly responseBodyWhole: StreamedBodyDigest | null
  /** When the request reached the emulator (ISO 8601, the emulator clock's real time). */
  readonly startedAt: string
  /** From the request's arrival to the upstream answer's last byte. */
  readonly durationMs: number
}

/** Something that watches forwarded traffic; called once per completed exchange, never throws into the proxy. */
export interface ForwardedExchangeObserver {
  observe(exchange: ForwardedExchange): void
}
