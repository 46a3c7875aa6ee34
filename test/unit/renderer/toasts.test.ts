import { beforeEach, describe, expect, it } from 'vitest'

import { toast, useToasts } from '../../../src/renderer/src/stores/toasts'

describe('toasts', () => {
  beforeEach(() => useToasts.setState({ toasts: [] }))

  it('three exports in a row are one toast counting up, showing the latest file', () => {
    toast.success('Config saved', 'demo-synth.json')
    toast.success('Config saved', 'demo-synth.env')
    toast.success('Config saved', 'demo-synth.h')
    const shown = useToasts.getState().toasts
    expect(shown).toHaveLength(1)
    expect(shown[0]).toMatchObject({ title: 'Config saved', description: 'demo-synth.h', count: 3 })
  })

  it('different news stays apart, the last three kinds only', () => {
    toast.success('A')
    toast.error('A')
    toast.info('B')
    toast.info('C')
    expect(useToasts.getState().toasts.map((shown) => `${shown.tone} ${shown.title}`)).toEqual([
      'error A',
      'info B',
      'info C'
    ])
  })
})
