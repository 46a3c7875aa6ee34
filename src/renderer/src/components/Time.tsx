import { describeMoment } from '../format/date'
import type { ClockName, MomentKind } from '../format/date'
import { useConnection } from '../stores/connection'
import { useEmulatorNow, useRealNow } from './useNow'

export interface MomentProps {
  value: string | null | undefined
  /** Which clock the time belongs to (emulator: license, subscription, credential, account times; system: request times). */
  clock?: ClockName
  /** `event` (happened) or `deadline` (due); see format/date. */
  kind?: MomentKind
  /** What an empty value reads as. */
  empty?: string
  seconds?: boolean
  /** Shows the relative hint (off where the time is the now itself). */
  relative?: boolean
  short?: boolean
}

/**
 * A time: absolute, then a relative hint computed against the right clock. While the emulator
 * clock is moved (the two clocks differ then) the hint names its clock, except for compact
 * emulator-clock times in rows, where the card says it once; the tooltip always does.
 */
export function Moment({
  value,
  clock = 'emulator',
  kind = 'event',
  empty = '—',
  seconds = false,
  relative = true,
  short = false
}: MomentProps) {
  const emulatorNow = useEmulatorNow()
  const realNow = useRealNow()
  const shifted = useConnection((state) => Math.abs(state.clockOffsetMs) >= 1000)
  const text = describeMoment(value, { nowMs: clock === 'system' ? realNow : emulatorNow, clock, kind, short, seconds })
  if (!value || !text) return <span className="muted">{empty}</span>
  return (
    <span className="moment" data-clock={clock}>
      <time dateTime={value} title={text.title}>
        {text.absolute}
      </time>
      {relative ? (
        <>
          {' '}
          <span className="moment__hint">
            <span className="moment__relative">
              {'·\u00a0'}
              {text.relative}
            </span>
            {shifted && (clock === 'system' || !short) ? `, ${text.clock}` : ''}
          </span>
        </>
      ) : null}
    </span>
  )
}

/** A compact time for rows and sentences ("Nov 21, 10:01 AM · 3 days ago"). */
export function RelativeTime({ empty = 'never', ...props }: MomentProps) {
  return <Moment short empty={empty} {...props} />
}

/** The full date and time with its relative hint. */
export function DateTime(props: MomentProps) {
  return <Moment {...props} />
}
