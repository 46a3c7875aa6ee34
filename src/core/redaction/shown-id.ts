import { previewOf } from './redact'

/**
 * An id as an answer may repeat it: whole when it has the shape of that kind of id (`prod_...`,
 * `cus_...`), otherwise a preview, since a value in an id's place may be a pasted secret (a
 * plugin secret sent as a product id). docs/api.md section 1: nothing that could be a credential is echoed.
 */
export function shownId(value: string, prefix: string): string {
  if (new RegExp(`^${prefix}_[A-Za-z0-9_]{1,64}$`).test(value)) return value
  return `"${previewOf(value)}" (not shaped like a ${prefix}_ id)`
}
