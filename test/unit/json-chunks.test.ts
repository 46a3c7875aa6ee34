import { describe, expect, it } from 'vitest'

import { jsonChunks } from '../../src/server/http/json-chunks'

const text = (value: unknown): string => {
  const json = jsonChunks(value)
  return typeof json === 'string' ? json : Buffer.concat(json).toString('utf8')
}

/** An answer shaped like a large library: groups of items at the top and one level down. */
function libraryLike(items: number): Record<string, unknown> {
  const item = (i: number) => ({
    id: `item_${i}`,
    name: `Prodüct ${i} — “quoted” \u{1F3B9} \\ "escaped" \n line`,
    price: i * 1.5,
    nothing: null,
    skipped: undefined,
    callback: () => i,
    symbol: Symbol('left out'),
    tags: [i, `t${i}`, undefined, () => 0],
    when: new Date(Date.UTC(2030, 0, 1, 0, 0, i % 60)),
    nested: { deeper: { deepest: [{ i }] } }
  })
  return {
    ok: true,
    products: Array.from({ length: items }, (_, i) => item(i)),
    empty: [],
    emptyObject: {},
    support: { contacts: Array.from({ length: items }, (_, i) => ({ email: `c${i}@example.test` })), url: 'x' },
    left: undefined,
    download_token: 'tok'
  }
}

describe('jsonChunks', () => {
  it("writes JSON.stringify's text exactly, for a large answer and for the shapes JSON treats specially", () => {
    const sparse = [1, , 3] // eslint-disable-line no-sparse-arrays -- a hole is written as null
    const withToJson = { toJSON: () => ({ replaced: true }), hidden: 1 }
    const arrayWithToJson = Object.assign([1, 2], { toJSON: () => 'array' })
    const nullProto = Object.assign(Object.create(null) as Record<string, unknown>, { a: 1, b: [2] })
    class Thing {
      visible = 1
    }
    const values: unknown[] = [
      libraryLike(1000),
      libraryLike(1),
      { sparse, withToJson, arrayWithToJson, nullProto, thing: new Thing(), map: new Map([[1, 2]]) },
      { boxed: [new String('s'), new Number(1), new Boolean(false)], big: 'é'.repeat(200_000) },
      [libraryLike(3), [[[]]], null, 'x'],
      [],
      {},
      'a string',
      42,
      null,
      new Date(0)
    ]
    // Compared as booleans: a failure prints which value, not megabytes of text.
    for (const [at, value] of values.entries()) expect(text(value) === JSON.stringify(value), `value ${at}`).toBe(true)
  })

  it('cuts a large answer into chunks of about 64 KiB, none much larger than one element', () => {
    const value = libraryLike(1000)
    const chunks = jsonChunks(value)
    if (typeof chunks === 'string') throw new Error('a large answer came back as one string')
    const whole = Buffer.byteLength(JSON.stringify(value))
    expect(whole).toBeGreaterThan(200_000)
    expect(chunks.length).toBeGreaterThan(whole / (128 * 1024))
    const largestItem = Math.max(
      ...(value.products as unknown[]).map((item) => Buffer.byteLength(JSON.stringify(item)))
    )
    // A run of elements stops near 64 Ki characters; UTF-8 makes some of them two to four bytes.
    for (const chunk of chunks) expect(chunk.length).toBeLessThan(4 * (64 * 1024 + largestItem))
  })

  it('gives a small answer back as its text', () => {
    const value = { ok: true, items: Array.from({ length: 300 }, (_, i) => ({ i, name: `item ${i}` })) }
    expect(jsonChunks(value)).toBe(JSON.stringify(value))
  })

  it('refuses a value JSON cannot write at all, as a programming error', () => {
    expect(() => jsonChunks(undefined)).toThrow(TypeError)
    expect(() => jsonChunks({ big: 1n })).toThrow(TypeError)
  })
})
