import { useState } from 'react'

import type { Exchange } from '../../api/http'
import { Button } from '../../components/Button'
import { CopyButton } from '../../components/CopyButton'
import { JsonView } from '../../components/JsonView'
import { HeaderTable } from '../requests/HeaderTable'
import { maskBody, maskHeaders, toCurl } from './exchange-mask'

/** One side of an exchange: the request as sent (secrets masked unless shown) or the response as received. */
export function ExchangeView({ exchange, show }: { exchange: Exchange; show: 'request' | 'response' }) {
  const [reveal, setReveal] = useState(false)
  if (show === 'request') {
    const { request } = exchange
    return (
      <div className="stack">
        <p className="exchange-url">
          <span className="method">{request.method}</span> <code className="mono break">{request.url}</code>
        </p>
        <div className="inline-actions">
          <Button
            size="sm"
            variant="ghost"
            icon={reveal ? 'eyeOff' : 'eye'}
            needsServer={false}
            aria-pressed={reveal}
            onClick={() => setReveal(!reveal)}
          >
            {reveal ? 'Mask secrets' : 'Show secrets'}
          </Button>
          <CopyButton value={toCurl(request)} label="Copy as curl" variant="ghost" />
        </div>
        <HeaderTable headers={reveal ? request.headers : maskHeaders(request.headers)} caption="Request headers" />
        {request.body !== null ? (
          <JsonView value={reveal ? request.body : maskBody(request.body)} label="Request body" maxHeight={260} />
        ) : null}
      </div>
    )
  }
  const response = exchange.response
  if (!response) return <p className="muted">No response arrived.</p>
  return (
    <div className="stack">
      <JsonView value={response.body} label="Response body" maxHeight={320} testId="response-body" />
      <details className="disclosure">
        <summary>Response headers</summary>
        <HeaderTable headers={response.headers} caption="Response headers" />
      </details>
    </div>
  )
}
