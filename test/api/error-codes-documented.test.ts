import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

import { ERROR_CODES } from '../../src/shared/contract/error-codes'
import { useEmulator } from '../support/emulator'

// Every code the server can answer (the domain's typed status table and the transport's) is
// documented: in the Errors table of docs/api.md (section 1) and in the OpenAPI document's one error schema.
const emu = useEmulator()

const apiDoc = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8')
const errorsStart = apiDoc.indexOf('## 1. Envelope and errors')
const errorsSection = apiDoc.slice(errorsStart, apiDoc.indexOf('\n## ', errorsStart + 1))

describe('error codes', () => {
  it('knows the codes of both tables, transport codes included', () => {
    for (const code of [
      'VALIDATION_ERROR',
      'MALFORMED_REQUEST',
      'HEADERS_TOO_LARGE',
      'URI_TOO_LONG',
      'INTERNAL',
      'RATE_LIMITED',
      'LIBRARY_CLAIM_FAILED'
    ]) {
      expect(ERROR_CODES).toContain(code)
    }
  })

  it.each(ERROR_CODES.map((code) => [code]))('documents %s in the Errors table of docs/api.md', (code) => {
    const row = errorsSection.split('\n').find((line) => line.startsWith('|') && line.includes(`\`${code}\``))
    expect(row, `no row for ${code}`).toBeDefined()
    // The row gives a status.
    expect(row).toMatch(/\| \d{3}/)
  })

  it('lists exactly these codes in the OpenAPI ErrorResponse schema', async () => {
    const document = (await emu.request('GET', '/openapi.json')).body
    const schema = document.components.schemas.ErrorResponse
    expect([...schema.properties.error.enum].sort()).toEqual([...ERROR_CODES].sort())
  })

  it('documents no code the server cannot answer', () => {
    const documented = new Set([...errorsSection.matchAll(/`([A-Z][A-Z_]+)`/g)].map((match) => match[1]!))
    const known = new Set<string>(ERROR_CODES)
    // Reason values and field names that the table mentions in its explanations.
    for (const other of ['INVALID_CLAIM_TOKEN', 'ALREADY_CLAIMED']) documented.delete(other)
    expect([...documented].filter((code) => !known.has(code))).toEqual([])
  })
})
