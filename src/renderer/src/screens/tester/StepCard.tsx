import { useState } from 'react'

import type { Exchange } from '../../api/http'
import { Badge, StatusBadge } from '../../components/Badge'
import type { Tone } from '../../components/Badge'
import { Button } from '../../components/Button'
import { Icon } from '../../components/Icon'
import { InlineError } from '../../components/States'
import { Tabs } from '../../components/Tabs'
import { formatDuration } from '../../format/date'
import { useConnection } from '../../stores/connection'
import { useProducts } from '../../stores/products'
import { useTester } from '../../stores/tester'
import type { LifecycleStep, TesterState } from '../../stores/tester'
import { diagnose, licensingHint } from './diagnosis'
import { ExchangeView } from './ExchangeView'
import { TokenReportView } from './TokenReportView'

const STEPS: Record<LifecycleStep, { title: string; path: string; text: string; run: string }> = {
  verify: {
    title: 'Verify the connection',
    path: 'POST /api/plugin-connections/verify',
    text: 'Do the product ID, App ID, plugin key and secret belong together?',
    run: 'Verify'
  },
  activate: {
    title: 'Activate',
    path: 'POST /api/license/v1/activate',
    text: 'Takes an activation slot for this instance and answers a signed license token.',
    run: 'Activate'
  },
  validate: {
    title: 'Validate',
    path: 'POST /api/license/v1/validate',
    text: 'The periodic check: 200 once authenticated, with valid and a code.',
    run: 'Validate'
  },
  deactivate: {
    title: 'Deactivate',
    path: 'POST /api/license/v1/deactivate',
    text: 'Frees the slot of this instance.',
    run: 'Deactivate'
  }
}

/** What is missing before a step can run (null: ready). */
function missing(step: LifecycleStep, state: Pick<TesterState, 'values' | 'license'>): string | null {
  const { values, license } = state
  if (step === 'verify') {
    const empty = (['productId', 'appId', 'pluginKey', 'pluginSecret'] as const).filter(
      (key) => values[key].trim() === ''
    )
    return empty.length ? 'Fill in all four credential values first.' : null
  }
  if (!values.appId.trim() || !values.pluginKey.trim() || !values.pluginSecret.trim())
    return 'Fill in the App ID, plugin key and plugin secret first.'
  if (!license.licenseKey.trim()) return 'Enter a license key first.'
  if (step !== 'validate' && !license.instanceId.trim()) return 'Enter an instance ID first.'
  return null
}

function summary(step: LifecycleStep, exchange: Exchange): { tone: Tone; text: string } {
  const body = (exchange.response?.body ?? null) as Record<string, unknown> | null
  if (exchange.error) return { tone: 'danger', text: exchange.error.code }
  switch (step) {
    case 'verify':
      return { tone: 'success', text: 'verified' }
    case 'activate':
      return { tone: 'success', text: body?.created ? 'activated (new slot)' : 'already active here' }
    case 'validate':
      return body?.valid
        ? { tone: 'success', text: 'VALID' }
        : { tone: 'warning', text: String(body?.code ?? 'not valid') }
    case 'deactivate':
      return { tone: 'success', text: 'deactivated' }
  }
}

export function StepCard({ step, index }: { step: LifecycleStep; index: number }) {
  const result = useTester((state) => state.results[step])
  const running = useTester((state) => state.running)
  const values = useTester((state) => state.values)
  const license = useTester((state) => state.license)
  const run = useTester((state) => state.run)
  const strict = useConnection((state) => state.info.data?.settings.strict ?? false)
  const lastRun = useTester((state) => state.lastRun)
  const productId = useTester((state) => state.values.productId)
  const currentCredentialId = useProducts((state) => state.details[productId]?.current.data?.id ?? null)
  const [tab, setTab] = useState('response')
  // Details of the step run last are open; the others fold to their summary unless opened.
  const [pinned, setPinned] = useState<boolean | null>(null)
  const [pinnedFor, setPinnedFor] = useState(result)
  if (pinnedFor !== result) {
    setPinnedFor(result)
    setPinned(null)
  }
  const expanded = pinned ?? lastRun === step
  const info = STEPS[step]
  const why = missing(step, { values, license })
  const outcome = result ? summary(step, result.exchange) : null
  const body = (result?.exchange.response?.body ?? null) as Record<string, unknown> | null
  const validateProblem =
    step === 'validate' && body && body.valid === false
      ? { code: String(body.code), message: String(body.message ?? '') }
      : null
  const diagnosis = result?.exchange.error ? diagnose(result.exchange.error, strict) : null
  const credentialChanged = Boolean(
    result?.credentialId && currentCredentialId && result.credentialId !== currentCredentialId
  )

  const tabs = [
    { id: 'response', label: 'Response' },
    { id: 'request', label: 'Request' },
    ...(result?.token ? [{ id: 'token', label: result.token.valid ? 'License token ✓' : 'License token ✗' }] : [])
  ]
  const selectedTab = tabs.some((t) => t.id === tab) ? tab : 'response'

  return (
    <li className={`step-card ${outcome ? `step-card--${outcome.tone}` : ''}`} data-testid={`step-${step}`}>
      <header className="step-card__header">
        <span className="step-card__index" aria-hidden="true">
          {index}
        </span>
        <div className="step-card__titles">
          <h2 className="step-card__title">{info.title}</h2>
          <p className="step-card__path mono">{info.path}</p>
        </div>
        <div className="step-card__run">
          {outcome ? (
            <Badge tone={outcome.tone}>
              <span data-testid={`step-${step}-outcome`}>{outcome.text}</span>
            </Badge>
          ) : null}
          {result ? (
            <Button
              size="sm"
              variant="ghost"
              needsServer={false}
              aria-expanded={expanded}
              onClick={() => setPinned(!expanded)}
            >
              {expanded ? 'Hide details' : 'Details'}
            </Button>
          ) : null}
          <Button
            variant={result === undefined && why === null ? 'primary' : 'secondary'}
            size="sm"
            icon="play"
            busy={running === step}
            disabled={why !== null || (running !== null && running !== step)}
            disabledReason={why ?? 'Another step is running.'}
            title={info.text}
            onClick={() => void run(step)}
          >
            {info.run}
          </Button>
        </div>
      </header>
      {!result ? <p className="step-card__text muted small">{why ?? info.text}</p> : null}
      {result ? (
        <div className="step-card__body">
          <p className="exchange-line">
            <StatusBadge status={result.exchange.response?.status ?? 0} />
            <span className="muted small">{formatDuration(result.exchange.durationMs)}</span>
            {/* The diagnosis below says the message already when it is the server's own: once is enough. */}
            {result.exchange.response &&
            body &&
            typeof body.message === 'string' &&
            body.message !== diagnosis?.title ? (
              <span className="small">{body.message}</span>
            ) : step === 'deactivate' && !result.exchange.error && result.exchange.response ? (
              <span className="small" data-testid="step-deactivate-message">
                Deactivated: this instance no longer holds a slot of the license; activate it again to take one.
              </span>
            ) : null}
          </p>
          {credentialChanged ? (
            <div className="callout callout--warning" data-testid={`step-${step}-stale`}>
              <Icon name="alert" size={18} />
              <p className="small">
                <span className="strong">The credential changed after this run</span> (rotated, revoked or created
                again): this result used the old one. Fill key and secret again and run the step to see what a plugin
                with the new values gets.
              </p>
            </div>
          ) : null}
          {diagnosis ? (
            <div className="callout callout--danger" data-testid={`step-${step}-diagnosis`}>
              <Icon name="alert" size={18} />
              <div>
                <p className="strong">{diagnosis.title}</p>
                {diagnosis.hint ? <p className="small">{diagnosis.hint}</p> : null}
                <p className="small">
                  <code className="error-code">{result.exchange.error?.code}</code>
                  {result.exchange.error?.reason ? (
                    <code className="error-code">reason: {result.exchange.error.reason}</code>
                  ) : null}
                </p>
              </div>
            </div>
          ) : null}
          {validateProblem ? (
            <div className="callout callout--warning" data-testid="step-validate-problem">
              <Icon name="alert" size={18} />
              <div>
                <p className="strong">
                  Not valid: <code className="error-code">{validateProblem.code}</code>
                </p>
                <p className="small">{licensingHint(validateProblem.code) || validateProblem.message}</p>
              </div>
            </div>
          ) : null}
          {result.exchange.response === null ? <InlineError error={result.exchange.error} /> : null}
          {expanded ? (
            <Tabs tabs={tabs} selected={selectedTab} onSelect={setTab} label={`${info.title} details`}>
              {selectedTab === 'token' && result.token ? (
                <TokenReportView report={result.token} />
              ) : (
                <ExchangeView exchange={result.exchange} show={selectedTab === 'request' ? 'request' : 'response'} />
              )}
            </Tabs>
          ) : null}
        </div>
      ) : null}
    </li>
  )
}
