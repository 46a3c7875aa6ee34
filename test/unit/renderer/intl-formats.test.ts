import { describe, expect, it } from 'vitest'

import { dateTimeFormat, numberFormat, relativeFormat } from '../../../src/renderer/src/format/intl-formats'

describe('Intl formatters, made once per locale and options', () => {
  it('hands back the same formatter for the same locale and options', () => {
    expect(dateTimeFormat('en-US', { month: 'short' })).toBe(dateTimeFormat('en-US', { month: 'short' }))
    expect(numberFormat('de-DE', {})).toBe(numberFormat('de-DE', {}))
    expect(relativeFormat('fr-FR')).toBe(relativeFormat('fr-FR'))
  })

  it('keeps formatters of other locales and options apart', () => {
    expect(dateTimeFormat('en-US', { month: 'short' })).not.toBe(dateTimeFormat('en-US', { month: 'long' }))
    expect(numberFormat('de-DE', {}).format(1234.5)).toBe('1.234,5')
    expect(numberFormat('en-US', {}).format(1234.5)).toBe('1,234.5')
  })

  it('remembers no formatter Intl refuses to make (an unknown currency throws every time)', () => {
    expect(() => numberFormat('en-US', { style: 'currency', currency: 'NOPE!' })).toThrow(RangeError)
    expect(() => numberFormat('en-US', { style: 'currency', currency: 'NOPE!' })).toThrow(RangeError)
  })
})
