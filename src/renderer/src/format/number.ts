/** Numbers for people: grouped counts, money from cents, percentages. */

import { numberFormat } from './intl-formats'

export function formatCount(value: number, options: { locale?: string } = {}): string {
  return numberFormat(options.locale, {}).format(value)
}

/** "3 licenses", "1 license": the count formatted, the noun pluralised the English way. */
export function pluralize(
  count: number,
  singular: string,
  plural = `${singular}s`,
  options: { locale?: string } = {}
): string {
  return `${formatCount(count, options)} ${count === 1 ? singular : plural}`
}

export function formatMoney(cents: number, currency: string, options: { locale?: string } = {}): string {
  try {
    return numberFormat(options.locale, { style: 'currency', currency }).format(cents / 100)
  } catch {
    // An unknown currency code: still readable.
    return `${(cents / 100).toFixed(2)} ${currency}`
  }
}

/** 0.25 -> "25%". */
export function formatPercent(ratio: number, options: { locale?: string } = {}): string {
  return numberFormat(options.locale, { style: 'percent', maximumFractionDigits: 1 }).format(ratio)
}
