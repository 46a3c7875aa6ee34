import { describe, expect, expectTypeOf, it } from 'vitest'
import type { Static } from 'typebox'
import type { LibraryPayload } from '../../src/core/library/library-view'
import type { toWebviewPayload } from '../../src/core/library/webview-view'
import { FAULT_DEFAULTS, FAULT_KINDS, FAULT_LIMITS } from '../../src/core/faults/fault-rules'
import type { FaultKind } from '../../src/core/faults/fault-rules'
import { AUTH_KINDS, SURFACES } from '../../src/core/inspector/types'
import type { AuthKind, Surface } from '../../src/core/inspector/types'
import { MAX_PAGE_SIZE } from '../../src/core/inspector/request-log'
import type { LicenseCode } from '../../src/core/licensing/license-judgement'
import { LibraryPayloadSchema, WebviewPayloadSchema } from '../../src/server/schemas/library'
import { FAULT_RULE_DEFAULTS, FAULT_RULE_LIMITS, FaultKindSchema } from '../../src/server/schemas/faults'
import { AuthKindSchema, REQUEST_PAGE_MAX, SurfaceSchema } from '../../src/server/schemas/requests'
import { LicenseCodeSchema } from '../../src/server/schemas/licensing'

// Schema files depend on typebox alone (the renderer type-checks them), so they cannot import
// the core. Where both state the same thing, these checks keep them equal. The type checks run
// in `tsc -p tsconfig.node.json`; the value checks in vitest.

describe('the library schemas describe exactly what the core builds', () => {
  // Responses are serialized through the schema: a field it lacks would be dropped silently.
  it('GET /api/library', () => {
    expectTypeOf<Static<typeof LibraryPayloadSchema>>().toEqualTypeOf<LibraryPayload>()
  })

  it('the in-plugin web view', () => {
    expectTypeOf<Static<typeof WebviewPayloadSchema>>().toEqualTypeOf<ReturnType<typeof toWebviewPayload>>()
  })
})

describe('the schemas state the vocabulary and bounds of the core', () => {
  it('request inspector surfaces, auth kinds and page size', () => {
    expect(SurfaceSchema.enum).toEqual([...SURFACES])
    expect(AuthKindSchema.enum).toEqual([...AUTH_KINDS])
    expect(REQUEST_PAGE_MAX).toBe(MAX_PAGE_SIZE)
    expectTypeOf<Static<typeof SurfaceSchema>>().toEqualTypeOf<Surface>()
    expectTypeOf<Static<typeof AuthKindSchema>>().toEqualTypeOf<AuthKind>()
  })

  it('fault kinds, limits and defaults', () => {
    expect(FaultKindSchema.anyOf.map((kind) => kind.const)).toEqual([...FAULT_KINDS])
    expect(FAULT_RULE_LIMITS).toEqual(FAULT_LIMITS)
    expect(FAULT_RULE_DEFAULTS).toEqual(FAULT_DEFAULTS)
    expectTypeOf<Static<typeof FaultKindSchema>>().toEqualTypeOf<FaultKind>()
    expectTypeOf(FAULT_RULE_LIMITS).toEqualTypeOf(FAULT_LIMITS)
    expectTypeOf(FAULT_RULE_DEFAULTS).toEqualTypeOf(FAULT_DEFAULTS)
  })

  it('license codes', () => {
    expectTypeOf<Static<typeof LicenseCodeSchema>>().toEqualTypeOf<LicenseCode>()
  })
})
