import type { CSSProperties, ReactNode } from 'react'

/**
 * A placeholder of the final content's size while it loads, so nothing moves when it arrives.
 * Give it the width and height (or lines) of what it stands for.
 */
export function Skeleton({
  width = '100%',
  height = '1em',
  radius,
  style,
  className
}: {
  width?: CSSProperties['width']
  height?: CSSProperties['height']
  radius?: CSSProperties['borderRadius']
  style?: CSSProperties
  className?: string
}) {
  return (
    <span
      className={`skeleton ${className ?? ''}`}
      aria-hidden="true"
      style={{ width, height, borderRadius: radius, ...style }}
    />
  )
}

/** Lines of text: each line as tall as the text it replaces. */
export function SkeletonLines({ lines = 3, widths }: { lines?: number; widths?: CSSProperties['width'][] }) {
  return (
    <span className="skeleton-lines" aria-hidden="true">
      {Array.from({ length: lines }, (_, index) => (
        <span key={index} className="skeleton-line">
          <Skeleton width={widths?.[index % widths.length] ?? (index === lines - 1 ? '60%' : '100%')} height="0.9em" />
        </span>
      ))}
    </span>
  )
}

/** For a region that is loading: announced once to assistive technology, invisible otherwise. */
export function LoadingRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div aria-busy="true" aria-label={label} role="status">
      <span className="visually-hidden">{label}</span>
      {children}
    </div>
  )
}
