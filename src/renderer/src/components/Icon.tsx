import type { SVGProps } from 'react'

/** A few line icons (24px grid, currentColor). Decorative unless given a title. */
const PATHS = {
  copy: 'M9 9h10v10H9zM5 15V5h10',
  check: 'M5 12.5l4.5 4.5L19 7.5',
  eye: 'M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12zm10 3a3 3 0 1 0 0-6 3 3 0 0 0 0 6z',
  eyeOff:
    'M3 3l18 18M10.6 5.1A10.8 10.8 0 0 1 12 5c6.5 0 10 7 10 7a17 17 0 0 1-3.2 4.2M6.6 6.6C3.8 8.4 2 12 2 12s3.5 7 10 7c1.9 0 3.5-.6 4.9-1.4M9.9 9.9a3 3 0 0 0 4.2 4.2',
  refresh: 'M20 11a8 8 0 1 0-2.3 5.7M20 4v7h-7',
  external: 'M14 4h6v6M20 4l-9 9M18 14v5H5V6h5',
  download: 'M12 4v11m-5-5l5 5 5-5M5 20h14',
  alert: 'M12 8v5m0 3.5v.5M10.3 3.9L2.4 18a2 2 0 0 0 1.7 3h15.8a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0z',
  close: 'M6 6l12 12M18 6L6 18',
  plus: 'M12 5v14M5 12h14',
  trash: 'M4 7h16M9 7V4h6v3m-8 0l1 13h8l1-13',
  up: 'M12 19V5m-6 6l6-6 6 6',
  down: 'M12 5v14m-6-6l6 6 6-6',
  play: 'M7 5l12 7-12 7z',
  pause: 'M8 5v14M16 5v14',
  key: 'M14.5 9.5a4.5 4.5 0 1 1-3 4.2L4 21H2v-3l7.3-7.3a4.5 4.5 0 0 1 5.2-1.2zM16 8h.01',
  info: 'M12 11v6m0-9.5V8M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z',
  folder: 'M3 6h6l2 2h10v11H3z',
  clock: 'M12 7v5l3 2M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z'
} as const

export type IconName = keyof typeof PATHS

/** A line glyph on the 24px grid from a path: the icons below, and the sidebar's own glyphs. */
export function LineGlyph({
  d,
  size = 16,
  title,
  ...rest
}: { d: string; size?: number; title?: string } & SVGProps<SVGSVGElement>) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden={title ? undefined : true}
      role={title ? 'img' : undefined}
      focusable="false"
      {...rest}
    >
      {title ? <title>{title}</title> : null}
      <path d={d} />
    </svg>
  )
}

export function Icon({ name, ...rest }: { name: IconName; size?: number; title?: string } & SVGProps<SVGSVGElement>) {
  return <LineGlyph d={PATHS[name]} className="icon" {...rest} />
}
