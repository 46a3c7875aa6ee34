/**
 * The credentials a request carried, as literal values. A real platform's credentials need not
 * have the emulator's shapes (`sk_…`, `pk_…`, a JWT), so redaction by shape misses them when an
 * upstream echoes them back: whatever the request sent in a credential header is a secret
 * wherever that exchange carries it again (the inspector previews it, a recording fingerprints it).
 */

import { isSecretShaped } from './redact'

/** Shorter values are not looked for: replacing them would wipe ordinary text (as hideValues skips them). */
export const MIN_CREDENTIAL_LENGTH = 8

/** Headers whose value, after an auth scheme (`Bearer`, `Basic`), is a credential. */
const AUTHORIZATION_HEADERS = ['authorization', 'proxy-authorization'] as const

const AUTH_SCHEME = /^[A-Za-z][A-Za-z0-9_-]*\s+(\S.*)$/

/** One credential value and the (lower-case) header that carried it. */
export interface CredentialValue {
  readonly value: string
  readonly header: string
  /** The value followed an auth scheme (`Bearer <value>`) in an Authorization header. */
  readonly afterScheme: boolean
}

type Headers = Readonly<Record<string, string | number | readonly string[] | undefined>>

/**
 * The values of `credentialHeaders` (lower-case names: the product credential headers) and of
 * Authorization (without its scheme), longest first so a value holding another is replaced whole.
 * Headers are looked up by name, never walked: this runs for every request the inspector records.
 * `exceptShaped` leaves out values redaction by shape already finds (the emulator's own
 * credentials), so they cost the inspector no search.
 */
export function credentialValuesOf(
  headers: Headers,
  credentialHeaders: Iterable<string>,
  options: { exceptShaped?: boolean } = {}
): CredentialValue[] {
  const found: CredentialValue[] = []
  const add = (header: string, raw: string | number | readonly string[] | undefined, authorization: boolean) => {
    if (raw === undefined) return
    if (typeof raw === 'object') {
      for (const item of raw) add(header, item, authorization)
      return
    }
    let value = String(raw).trim()
    let afterScheme = false
    if (authorization) {
      const credential = AUTH_SCHEME.exec(value)?.[1]
      if (credential !== undefined) {
        value = credential
        afterScheme = true
      }
    }
    if (value.length < MIN_CREDENTIAL_LENGTH || (options.exceptShaped && isSecretShaped(value))) return
    for (const item of found) if (item.value === value) return
    found.push({ value, header, afterScheme })
  }
  for (const name of credentialHeaders) add(name, headers[name], false)
  for (const name of AUTHORIZATION_HEADERS) add(name, headers[name], true)
  return found.length > 1 ? found.sort((a, b) => b.value.length - a.value.length) : found
}

/** One literal to find and what stands in its place, in the same encoding. */
export interface LiteralReplacement {
  readonly find: string
  readonly replace: string
}

/** Characters no URL encoding changes (a form's encoding keeps the fewest); nor does JSON. */
const NEVER_ENCODED = /^[A-Za-z0-9\-_.*]*$/

/** `text` as it reads inside a JSON string (the same text when nothing in it is escaped). */
function jsonEscaped(text: string): string {
  const quoted = JSON.stringify(text)
  return quoted.length === text.length + 2 ? text : quoted.slice(1, -1)
}

/** The forms a value takes in a URL: encodeURIComponent's, and a form's or URLSearchParams' (`+` for a space). */
function urlForms(text: string): string[] {
  const forms = [new URLSearchParams({ v: text }).toString().slice(2)]
  try {
    forms.push(encodeURIComponent(text))
  } catch {
    // A lone surrogate has no such form.
  }
  return forms
}

function push(into: LiteralReplacement[], find: string, replace: string): void {
  if (find === '') return
  for (const item of into) if (item.find === find) return
  into.push({ find, replace })
}

/**
 * How each value reads in plain text (raw, and URL-encoded as in a path or query) and in JSON
 * text (escaped once, twice for a body kept as a JSON string, and URL-encoded), each paired with
 * its replacement encoded alike so the text stays valid. `replacementOf` gives the raw stand-in.
 * Most credentials read the same in every form: the encodings are only worked out when they differ
 * (this runs for every request the inspector records).
 */
export function literalReplacements(
  values: readonly CredentialValue[],
  replacementOf: (credential: CredentialValue) => string
): { plain: LiteralReplacement[]; json: LiteralReplacement[] } {
  const plain: LiteralReplacement[] = []
  const json: LiteralReplacement[] = []
  for (const credential of values) {
    const { value } = credential
    const stand = replacementOf(credential)
    // The usual credential reads the same in every form, and so does its stand-in (a preview or a
    // fingerprint holds nothing that is encoded): one pair serves plain and JSON text.
    if (NEVER_ENCODED.test(value) && NEVER_ENCODED.test(stand)) {
      push(plain, value, stand)
      push(json, value, stand)
      continue
    }
    push(plain, value, stand)
    const once = jsonEscaped(value)
    push(json, once, jsonEscaped(stand))
    if (once !== value) push(json, jsonEscaped(once), jsonEscaped(jsonEscaped(stand)))
    const standForms = urlForms(stand)
    urlForms(value).forEach((form, index) => {
      const encodedStand = standForms[index] ?? stand
      push(plain, form, encodedStand)
      push(json, form, encodedStand)
    })
  }
  return { plain, json }
}

/** `text` with every `find` replaced, in order (a search first: nearly always nothing is found). */
export function replaceLiterals(text: string, replacements: readonly LiteralReplacement[]): string {
  let out = text
  for (const { find, replace } of replacements) if (out.includes(find)) out = out.split(find).join(replace)
  return out
}
