import type { TransportErrorCode } from '../../shared/contract/error-codes'
import { BAD_STATUS } from './forward-request'

/** Why the upstream could not be reached (docs/upstream.md): the `reason` of UPSTREAM_UNREACHABLE. */
export type UnreachableReason = 'REFUSED' | 'DNS' | 'TLS' | 'RESET'

/** A failed forwarding, as the client is told: 502 with a reason, or 504. */
export interface UpstreamFailure {
  code: Extract<TransportErrorCode, 'UPSTREAM_UNREACHABLE' | 'UPSTREAM_TIMEOUT'>
  reason: UnreachableReason | null
  message: string
}

const TIMEOUT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT'
])
const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME'])
const REFUSED_CODES = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL'])
// What OpenSSL says when the bytes that came back are no TLS record at all: a plain HTTP server's
// "HTTP/1.1 400" read as a record header (an https:// URL on a plain HTTP port).
const NOT_TLS_CODES = new Set([
  'ERR_SSL_WRONG_VERSION_NUMBER',
  'ERR_SSL_PACKET_LENGTH_TOO_LONG',
  'ERR_SSL_UNKNOWN_PROTOCOL'
])
const NOT_TLS_MESSAGE = /wrong version number|packet length too long|unknown protocol/i

/**
 * What went wrong, read from the error forwarding met: undici's, which may wrap Node's in
 * `cause`; a `code` along the chain says what happened. TLS failures carry OpenSSL's
 * codes (`DEPTH_ZERO_SELF_SIGNED_CERT`, `ERR_TLS_CERT_ALTNAME_INVALID`, `ERR_SSL_...`).
 */
export function upstreamFailureOf(error: unknown, upstreamUrl: string): UpstreamFailure {
  const url = new URL(upstreamUrl)
  const upstreamHost = url.host
  const codes = codesOf(error)
  if (codes.includes(BAD_STATUS)) {
    const status = (error as { status?: unknown }).status
    return unreachable(
      'RESET',
      `The upstream ${upstreamHost} answered with status ${String(status)}, which is not an HTTP status (100-599): its answer was dropped.`
    )
  }
  const named = (set: Set<string>) => codes.some((code) => set.has(code))
  if (named(TIMEOUT_CODES)) {
    const connecting = codes.includes('UND_ERR_CONNECT_TIMEOUT')
    return {
      code: 'UPSTREAM_TIMEOUT',
      reason: null,
      message: connecting
        ? `The upstream ${upstreamHost} did not accept the connection in time.`
        : `The upstream ${upstreamHost} did not answer in time.`
    }
  }
  if (named(DNS_CODES)) return unreachable('DNS', `The upstream's host name ${upstreamHost} could not be resolved.`)
  if (named(REFUSED_CODES)) return unreachable('REFUSED', `The upstream ${upstreamHost} refused the connection.`)
  if (named(NOT_TLS_CODES) || (codes.includes('EPROTO') && messagesOf(error).some((m) => NOT_TLS_MESSAGE.test(m)))) {
    return unreachable(
      'TLS',
      `The upstream ${upstreamHost} does not speak TLS on that port (what it sent back is not TLS): ` +
        'use an http:// URL for it, or the port it serves HTTPS on.'
    )
  }
  if (codes.some(isTlsCode)) {
    return unreachable('TLS', `The upstream ${upstreamHost}'s TLS certificate was not accepted (see --upstream-ca).`)
  }
  // A TLS server that reads plain HTTP (an http:// URL on an HTTPS port) closes without a word,
  // like a server that failed: only a hint can say which.
  const hint = url.protocol === 'http:' ? ' If it serves HTTPS on that port, use an https:// URL.' : ''
  return unreachable('RESET', `The connection to the upstream ${upstreamHost} was closed before it answered.${hint}`)
}

function unreachable(reason: UnreachableReason, message: string): UpstreamFailure {
  return { code: 'UPSTREAM_UNREACHABLE', reason, message }
}

function isTlsCode(code: string): boolean {
  return (
    code.startsWith('ERR_TLS_') ||
    code.startsWith('ERR_SSL_') ||
    // OpenSSL's own codes: a CA file that does not parse as a certificate, among others.
    code.startsWith('ERR_OSSL_') ||
    code.includes('CERT') ||
    code.includes('SELF_SIGNED') ||
    code === 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' ||
    code === 'EPROTO'
  )
}

/** Every `code` along the error's `cause` chain. */
function codesOf(error: unknown): string[] {
  return alongCauses(error, 'code')
}

/** Every `message` along the error's `cause` chain (OpenSSL's reason, when Node names no code). */
function messagesOf(error: unknown): string[] {
  return alongCauses(error, 'message')
}

/** One string member of each error along the `cause` chain (bounded: a cycle must not hang the proxy). */
function alongCauses(error: unknown, member: 'code' | 'message'): string[] {
  const found: string[] = []
  let current: unknown = error
  for (let depth = 0; depth < 8 && current !== null && typeof current === 'object'; depth++) {
    const value = (current as Record<string, unknown>)[member]
    if (typeof value === 'string') found.push(value)
    current = (current as { cause?: unknown }).cause
  }
  return found
}
