import type { ReactNode } from 'react'

import type { RequestEntry } from '../../api/types'
import { Badge } from '../../components/Badge'
import { BreakableText } from '../../components/BreakableText'
import { KeyValue } from '../../components/Card'
import { Moment } from '../../components/Time'
import { isOpaque } from './opaque-value'

type DecodedToken = NonNullable<RequestEntry['response']['licenseTokens']>[number]

/** What the registered claims mean, beside their names (docs/api.md "Verifying a license token offline"). */
const CLAIM_MEANINGS: Record<string, string> = {
  iss: 'issuer',
  aud: 'audience (App ID)',
  sub: 'subject (license)',
  jti: 'token id',
  iat: 'issued',
  nbf: 'not before',
  exp: 'token expires'
}

/** Claims in seconds since the epoch (RFC 7519), shown as dates too. */
const SECONDS_CLAIMS = new Set(['iat', 'nbf', 'exp'])
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/

/** A claim's value in words: a date where it is a time, the text wrapping at its separators, never cut. */
function ClaimValue({ name, value }: { name: string; value: unknown }) {
  if (value === null) return <code className="mono muted">null</code>
  if (typeof value === 'number' && SECONDS_CLAIMS.has(name)) {
    return (
      <span>
        <Moment value={new Date(value * 1000).toISOString()} kind={name === 'exp' ? 'deadline' : 'event'} seconds />{' '}
        <code className="mono muted">{value}</code>
      </span>
    )
  }
  if (typeof value === 'string' && ISO_INSTANT.test(value)) {
    return (
      <span>
        <Moment value={value} kind="deadline" /> <BreakableText className="mono muted" text={value} />
      </span>
    )
  }
  const text = typeof value === 'string' ? value : JSON.stringify(value)
  // An opaque value (a key id, a thumbprint: 43 characters) wraps anywhere: in a narrow pane it
  // cannot fit one line, and it has no parts to keep whole.
  if (isOpaque(text)) return <code className="mono request-token__opaque">{text}</code>
  return <BreakableText className="mono" text={text} />
}

/** One list row per claim; an object claim (`license`) as one row per member, `license.kind`. */
function claimRows(claims: Record<string, unknown>): { label: ReactNode; value: ReactNode; key: string }[] {
  // The registered claims first, in the order a verifier checks them; the rest as the token has them.
  const registered = Object.keys(CLAIM_MEANINGS)
  const rank = (name: string) => (registered.includes(name) ? registered.indexOf(name) : registered.length)
  const ordered = Object.entries(claims).sort(([a], [b]) => rank(a) - rank(b))
  return ordered.flatMap(([name, value]) => {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      return Object.entries(value as Record<string, unknown>).map(([member, inner]) => ({
        key: `${name}.${member}`,
        label: <BreakableText className="mono" text={`${name}.${member}`} />,
        value: <ClaimValue name={member} value={inner} />
      }))
    }
    return [
      {
        key: name,
        label: (
          <>
            <BreakableText className="mono" text={name} />
            {CLAIM_MEANINGS[name] ? <span className="request-token__meaning">{CLAIM_MEANINGS[name]}</span> : null}
          </>
        ),
        value: <ClaimValue name={name} value={value} />
      }
    ]
  })
}

function TokenBlock({ token, where }: { token: DecodedToken; where: string }) {
  return (
    <section className="request-token" aria-label={`License token in ${where}`} data-testid="request-license-token">
      <h3 className="subheading">License token</h3>
      <p className="muted small">
        In {where}: <code className="mono">{token.field}</code>. <Badge tone="neutral">signature redacted</Badge> The
        inspector keeps the header and claims only; the signature and the token as a whole are never stored.
      </p>
      <h4 className="request-token__part">Header</h4>
      <KeyValue
        testId="request-token-header"
        items={Object.entries(token.header).map(([name, value]) => ({
          key: name,
          label: <BreakableText className="mono" text={name} />,
          value: <ClaimValue name={name} value={value} />
        }))}
      />
      <h4 className="request-token__part">Claims</h4>
      <KeyValue testId="request-token-claims" items={claimRows(token.claims)} />
    </section>
  )
}

/**
 * Each license token of the exchange, decoded by the server (docs/ui.md "Requests"): header and
 * claims as readable lists. Entries recorded before the server decoded them carry none: only the
 * body's preview shows then.
 */
export function LicenseTokens({ entry }: { entry: RequestEntry }) {
  const found = [
    ...(entry.request.licenseTokens ?? []).map((token) => ({ token, where: 'the request body' })),
    ...(entry.response.licenseTokens ?? []).map((token) => ({ token, where: 'the response body' }))
  ]
  if (found.length === 0) return null
  return (
    <div className="stack">
      {found.map(({ token, where }, index) => (
        <TokenBlock key={`${where}-${token.field}-${index}`} token={token} where={where} />
      ))}
    </div>
  )
}
