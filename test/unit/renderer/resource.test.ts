import { describe, expect, it } from 'vitest'
import { create } from 'zustand'

import { failedWithoutData, idle, loadInto, ready } from '../../../src/renderer/src/stores/resource'
import type { Resource } from '../../../src/renderer/src/stores/resource'

interface State {
  items: Resource<string[]>
  label: string
}

describe('loadInto: one way every store loads a resource', () => {
  it('marks it loading while keeping the data, then ready with the new data', async () => {
    const store = create<State>()(() => ({ items: ready(['old']), label: 'kept' }))
    let seenWhileLoading: Resource<string[]> | null = null
    await loadInto({ get: store.getState, set: store.setState }, 'items', async () => {
      seenWhileLoading = store.getState().items
      return ['new']
    })
    expect(seenWhileLoading).toEqual({ status: 'loading', data: ['old'], error: null })
    expect(store.getState()).toEqual({ items: { status: 'ready', data: ['new'], error: null }, label: 'kept' })
  })

  it('keeps the previous data on failure, with the error; failedWithoutData only when there is none', async () => {
    const withData = create<State>()(() => ({ items: ready(['old']), label: '' }))
    await loadInto({ get: withData.getState, set: withData.setState }, 'items', () =>
      Promise.reject(new Error('server gone'))
    )
    expect(withData.getState().items).toMatchObject({ status: 'error', data: ['old'] })
    expect(failedWithoutData(withData.getState().items)).toBe(false)

    const empty = create<State>()(() => ({ items: idle(), label: '' }))
    await loadInto({ get: empty.getState, set: empty.setState }, 'items', () =>
      Promise.reject(new Error('server gone'))
    )
    expect(empty.getState().items.status).toBe('error')
    expect(failedWithoutData(empty.getState().items)).toBe(true)
  })

  it('keeps the answer of the load asked for last when an older one arrives after it', async () => {
    const store = create<State>()(() => ({ items: idle(), label: '' }))
    const io = { get: store.getState, set: store.setState }
    let answerFirst: (items: string[]) => void = () => {}
    const first = loadInto(io, 'items', () => new Promise<string[]>((resolve) => (answerFirst = resolve)))
    await loadInto(io, 'items', async () => ['second'])
    answerFirst(['first, stale'])
    await first
    expect(store.getState().items).toEqual({ status: 'ready', data: ['second'], error: null })

    let failFirst: (error: Error) => void = () => {}
    const failing = loadInto(io, 'items', () => new Promise<string[]>((_, reject) => (failFirst = reject)))
    await loadInto(io, 'items', async () => ['third'])
    failFirst(new Error('server gone'))
    await failing
    expect(store.getState().items).toEqual({ status: 'ready', data: ['third'], error: null })
  })

  it("drops a load's answer when a store action set the field itself meanwhile", async () => {
    const store = create<State>()(() => ({ items: ready(['old']), label: '' }))
    let answer: (items: string[]) => void = () => {}
    const load = loadInto(
      { get: store.getState, set: store.setState },
      'items',
      () => new Promise<string[]>((resolve) => (answer = resolve))
    )
    store.setState({ items: ready(['saved']) })
    answer(['read before the save'])
    await load
    expect(store.getState().items.data).toEqual(['saved'])
  })
})
