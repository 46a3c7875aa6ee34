import type { ReactNode } from 'react'

export type Tone = 'neutral' | 'success' | 'warning' | 'danger' | 'info' | 'accent'

export function Badge({ tone = 'neutral', children, title }: { tone?: Tone; children: ReactNode; title?: string }) {
  return (
    <span className={`badge badge--${tone}`} title={title}>
      {children}
    </span>
  )
}

/** HTTP status as a badge: 2xx green, 3xx blue, 4xx amber, 5xx and dropped connections red. */
export function StatusBadge({ status }: { status: number }) {
  const tone: Tone =
    status === 0 ? 'danger' : status < 300 ? 'success' : status < 400 ? 'info' : status < 500 ? 'warning' : 'danger'
  return (
    <Badge tone={tone} title={status === 0 ? 'The connection closed before a response' : undefined}>
      {status === 0 ? 'no response' : status}
    </Badge>
  )
}
