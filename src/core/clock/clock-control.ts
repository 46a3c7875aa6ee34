import { MAX_CLOCK_OFFSET_S } from '../../shared/contract/clock'
import { DomainError } from '../errors/domain-error'
import type { Clock } from './clock'

/** One move of the emulator clock: exactly one of the three is given. */
export interface ClockMove {
  /** Seconds from the system time. */
  offsetS?: number | undefined
  /** An absolute instant (ISO 8601). */
  now?: string | undefined
  /** Seconds from where the clock is now. */
  advanceS?: number | undefined
}

/** The emulator clock as the control plane shows it. */
export interface ClockState {
  now: string
  offsetS: number
  systemNow: string
}

export function clockState(clock: Clock): ClockState {
  return { now: clock.nowIso(), offsetS: clock.offsetMs() / 1000, systemNow: new Date().toISOString() }
}

/**
 * Moves the clock as QA asks, within MAX_CLOCK_OFFSET_S of the system time either way: an
 * advance that would go further stops at the limit.
 */
export function moveClock(clock: Clock, move: ClockMove): ClockState {
  const { offsetS, now, advanceS } = move
  const given = [offsetS, now, advanceS].filter((value) => value !== undefined).length
  if (given !== 1) throw new DomainError('VALIDATION_ERROR', 'Send exactly one of offsetS, now or advanceS.')
  const limitMs = MAX_CLOCK_OFFSET_S * 1000
  if (offsetS !== undefined) clock.setOffsetMs(offsetS * 1000)
  else if (advanceS !== undefined) clock.setOffsetMs(clock.offsetMs() + advanceS * 1000)
  else {
    const instant = new Date(now as string)
    if (Number.isNaN(instant.getTime()) || Math.abs(instant.getTime() - Date.now()) > limitMs) {
      throw new DomainError('VALIDATION_ERROR', 'now must be a date-time within 100 years of the system time.')
    }
    clock.setNow(instant)
  }
  if (Math.abs(clock.offsetMs()) > limitMs) clock.setOffsetMs(Math.sign(clock.offsetMs()) * limitMs)
  return clockState(clock)
}
