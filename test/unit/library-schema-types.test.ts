import type { Static } from 'typebox'
import { describe, expectTypeOf, it } from 'vitest'

import type { LibraryPayload } from '../../src/core/library/library-view'
import type { toWebviewPayload } from '../../src/core/library/webview-view'
import { LibraryPayloadSchema, WebviewPayloadSchema } from '../../src/shared/schemas/library'

// The library answers are serialised through their schemas (src/shared/schemas): a field the
// schema lacks would be dropped silently. The core builds the payloads with its own types, so
// these type checks (run by `tsc -p tsconfig.node.json`) hold the two to the same shape.

describe('the library schemas describe exactly what the core builds', () => {
  it('GET /api/library', () => {
    expectTypeOf<Static<typeof LibraryPayloadSchema>>().toEqualTypeOf<LibraryPayload>()
  })

  it('the in-plugin web view', () => {
    expectTypeOf<Static<typeof WebviewPayloadSchema>>().toEqualTypeOf<ReturnType<typeof toWebviewPayload>>()
  })
})
