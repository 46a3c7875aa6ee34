import { describe, expect, it } from 'vitest'

import { DomainError, isDomainError } from '../../src/core/errors/domain-error'

describe('DomainError', () => {
  it('carries its code, message and details, and is recognised', () => {
    const error = new DomainError('PRODUCT_NOT_FOUND', 'No such product.', { details: { productId: 'prd_1' } })
    expect(isDomainError(error)).toBe(true)
    expect(error).toBeInstanceOf(Error)
    expect(error.code).toBe('PRODUCT_NOT_FOUND')
    expect(error.message).toBe('No such product.')
    expect(error.details).toEqual({ productId: 'prd_1' })
    expect(error.productionMessage).toBe('No such product.')
  })

  it('captures no stack (an expected outcome, not a bug) and leaves other errors their stacks', () => {
    const before = Error.stackTraceLimit
    const error = new DomainError('PRODUCT_NOT_FOUND', 'No such product.')
    expect(error.stack).not.toMatch(/\n\s+at /)
    expect(Error.stackTraceLimit).toBe(before)
    expect(new Error('a bug').stack).toMatch(/\n\s+at /)
  })
})
