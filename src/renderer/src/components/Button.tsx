import { useId } from 'react'
import type { ButtonHTMLAttributes, ReactNode } from 'react'

import { serverDownReason, useServerLink } from '../stores/server-link'
import { Icon } from './Icon'
import type { IconName } from './Icon'

export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'ghost'

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant
  size?: 'sm' | 'md'
  icon?: IconName
  /** Shows a spinner and blocks clicks, keeping the button's width. */
  busy?: boolean
  /**
   * The action calls the emulator (the default): disabled, with the reason, while the server
   * does not answer. False for what works without it (close, copy, show, cancel).
   */
  needsServer?: boolean
  /**
   * Why the button is disabled (shown only while `disabled`). The button then stays focusable
   * (aria-disabled) so the reason is reachable: a tooltip on hover and focus, and its description.
   */
  disabledReason?: string | null
  children?: ReactNode
}

export function Button({
  variant = 'secondary',
  size = 'md',
  icon,
  busy = false,
  needsServer = true,
  disabled,
  disabledReason,
  className,
  children,
  type = 'button',
  onClick,
  ...rest
}: ButtonProps) {
  const reasonId = useId()
  const downReason = serverDownReason(useServerLink((link) => link.state))
  const blocked = needsServer && downReason !== null
  const reason = blocked ? downReason : disabled ? disabledReason : null
  const classes = ['btn', `btn--${variant}`, size === 'sm' ? 'btn--sm' : '', busy ? 'btn--busy' : '', className ?? '']
    .filter(Boolean)
    .join(' ')
  const content = (
    <>
      {busy ? (
        <span className="spinner" aria-hidden="true" />
      ) : icon ? (
        <Icon name={icon} size={size === 'sm' ? 14 : 16} />
      ) : null}
      {children !== undefined && children !== null ? <span className="btn__label">{children}</span> : null}
    </>
  )
  if ((disabled || blocked) && reason && !busy) {
    return (
      <span className="btn-why">
        <button
          type={type}
          className={classes}
          aria-disabled="true"
          aria-describedby={reasonId}
          title={reason}
          {...rest}
          onClick={(event) => event.preventDefault()}
        >
          {content}
        </button>
        <span role="tooltip" id={reasonId} className="btn-why__text">
          {reason}
        </span>
      </span>
    )
  }
  return (
    <button
      type={type}
      className={classes}
      disabled={disabled || busy || blocked}
      aria-busy={busy || undefined}
      onClick={onClick}
      {...rest}
    >
      {content}
    </button>
  )
}

/** A square button with only an icon; the label is for assistive technology and the tooltip. */
export function IconButton({
  icon,
  label,
  size = 'md',
  variant = 'ghost',
  ...rest
}: Omit<ButtonProps, 'children' | 'icon'> & { icon: IconName; label: string }) {
  return (
    <Button
      icon={icon}
      size={size}
      variant={variant}
      aria-label={label}
      title={label}
      className="btn--icon"
      {...rest}
    />
  )
}
