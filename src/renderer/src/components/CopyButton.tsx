import { useEffect, useRef, useState } from 'react'

import { Button } from './Button'
import type { ButtonProps } from './Button'
import { copyText } from './clipboard'

/**
 * Copies a value; says "Copied" for a moment (announced politely). With `iconOnly` it is a
 * small square button whose accessible name is "Copy <what>".
 */
export function CopyButton({
  value,
  label = 'Copy',
  what,
  iconOnly = false,
  size = 'sm',
  variant = 'secondary',
  ...rest
}: { value: string; label?: string; what?: string; iconOnly?: boolean } & Omit<ButtonProps, 'onClick' | 'children'>) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle')
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current)
    },
    []
  )
  const onClick = async () => {
    const ok = await copyText(value)
    setState(ok ? 'copied' : 'failed')
    if (timer.current) clearTimeout(timer.current)
    timer.current = setTimeout(() => setState('idle'), 1800)
  }
  const text = state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : label
  const name = what ? `${label} ${what}` : label
  return (
    <Button
      size={size}
      variant={variant}
      icon={state === 'copied' ? 'check' : 'copy'}
      needsServer={false}
      onClick={() => void onClick()}
      aria-label={iconOnly || what ? name : undefined}
      title={iconOnly ? name : undefined}
      className={`copy-button ${iconOnly ? 'btn--icon' : ''} ${state === 'copied' ? 'is-copied' : ''}`}
      data-copied={state === 'copied' || undefined}
      {...rest}
    >
      {iconOnly ? (
        <span className="visually-hidden" aria-live="polite">
          {state === 'idle' ? '' : text}
        </span>
      ) : (
        <span aria-live="polite">{text}</span>
      )}
    </Button>
  )
}
