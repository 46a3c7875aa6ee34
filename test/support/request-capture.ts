import type { CaptureRedaction, RequestCapture } from '../../src/core/inspector/types'

/** Redaction rules naming no credential header and hiding no value: a test adds what it is about. */
export const NO_REDACTION_RULES: CaptureRedaction = {
  appIdHeader: 'x-svc-app-id',
  credentialHeaders: [],
  hiddenHeaders: [],
  hiddenValues: []
}

/**
 * A finished exchange as the server's recorder hands it to the request log: a GET of `/` answered
 * 200, with nothing in either body, unless `overrides` say otherwise (each test names what it is about).
 */
export function requestCapture(overrides: Partial<RequestCapture> = {}): RequestCapture {
  return {
    method: 'GET',
    url: '/',
    status: 200,
    durationMs: 1,
    requestHeaders: { host: '127.0.0.1:4747' },
    requestBody: { parsed: undefined, head: [], receivedBytes: 0 },
    routeProductId: null,
    appIdProductId: null,
    responseHeaders: {},
    response: { kind: 'none' },
    aborted: false,
    redaction: NO_REDACTION_RULES,
    surface: 'other',
    authKind: 'none',
    ...overrides
  }
}
