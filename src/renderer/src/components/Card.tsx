import type { ReactNode } from 'react'

/** A titled panel: the unit every screen is built from. */
export function Card({
  title,
  actions,
  children,
  description,
  className,
  headingLevel = 2,
  testId,
  id,
  flush = false
}: {
  title?: ReactNode
  actions?: ReactNode
  children: ReactNode
  description?: ReactNode
  className?: string
  headingLevel?: 2 | 3
  testId?: string
  /** A place a link can land on (navigation/anchor.ts). */
  id?: string
  flush?: boolean
}) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3'
  return (
    <section className={`card ${className ?? ''}`} data-testid={testId} id={id}>
      {title || actions ? (
        <header className="card__header">
          <div className="card__titles">
            {title ? <Heading className="card__title">{title}</Heading> : null}
            {description ? <p className="card__description">{description}</p> : null}
          </div>
          {actions ? <div className="card__actions">{actions}</div> : null}
        </header>
      ) : null}
      <div className={`card__body ${flush ? 'card__body--flush' : ''}`}>{children}</div>
    </section>
  )
}

/** Label/value pairs in two columns. */
export function KeyValue({
  items,
  testId
}: {
  items: { label: ReactNode; value: ReactNode; key?: string }[]
  testId?: string
}) {
  return (
    <dl className="kv" data-testid={testId}>
      {items.map((item, index) => (
        <div className="kv__row" key={item.key ?? index}>
          <dt>{item.label}</dt>
          <dd>{item.value}</dd>
        </div>
      ))}
    </dl>
  )
}
