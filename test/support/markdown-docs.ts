import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

import { projectRoot } from './cli-process'

// The project's Markdown as the docs tests read it: fenced blocks, sections, headings and links,
// and the one rule for answers shown with values that differ on each run (docs/testing.md).

/** One fenced block: its info string (`sh`, `json`, …), its text, and the HTML comment right above it. */
export interface FencedBlock {
  lang: string
  text: string
  /** `<!-- … -->` on the last non-empty line before the fence, if any (e.g. `output of: …`). */
  marker: string | null
  /** 1-based line of the opening fence. */
  line: number
}

const FENCE = /^(\s*)(```+|~~~+)\s*([^\s`]*)[^`]*$/

/** The fenced blocks of a Markdown text, in order (fences indented inside a list item included). */
export function fencedBlocks(markdown: string): FencedBlock[] {
  const lines = markdown.split('\n')
  const blocks: FencedBlock[] = []
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!)
    if (!open) continue
    const [, indent = '', fence = '', lang = ''] = open
    const body: string[] = []
    let j = i + 1
    for (; j < lines.length; j++) {
      const line = lines[j]!
      if (line.trim().startsWith(fence) && line.trim().replace(/[`~]/g, '') === '') break
      body.push(line.startsWith(indent) ? line.slice(indent.length) : line.trimStart())
    }
    let k = i - 1
    while (k >= 0 && lines[k]!.trim() === '') k--
    const comment = k >= 0 ? /^\s*<!--\s*(.*?)\s*-->\s*$/.exec(lines[k]!) : null
    blocks.push({ lang, text: body.join('\n'), marker: comment ? comment[1]! : null, line: i + 1 })
    i = j
  }
  return blocks
}

/** The text outside fenced blocks (fence lines blanked, so line numbers stay). */
export function proseOf(markdown: string): string {
  const lines = markdown.split('\n')
  let fence: string | null = null
  return lines
    .map((line) => {
      const open = FENCE.exec(line)
      if (fence === null && open) {
        fence = open[2]!
        return ''
      }
      if (fence !== null) {
        if (line.trim().startsWith(fence) && line.trim().replace(/[`~]/g, '') === '') fence = null
        return ''
      }
      return line
    })
    .join('\n')
}

/** The section under the `## ` heading that starts with `title`, up to the next heading of that level or higher. */
export function sectionOf(markdown: string, title: string): string {
  const lines = markdown.split('\n')
  const prose = proseOf(markdown).split('\n')
  const start = prose.findIndex((line) => line.startsWith(`## ${title}`))
  if (start < 0) throw new Error(`no section "## ${title}"`)
  let end = start + 1
  while (end < lines.length && !/^#{1,2} /.test(prose[end]!)) end++
  return lines.slice(start, end).join('\n')
}

/**
 * The anchors GitHub gives a file's headings: the heading's text (inline code and link text kept,
 * markup dropped), lower case, every character that is not a letter, digit, space, `-` or `_`
 * removed, spaces made dashes; a repeated slug gets `-1`, `-2`, ….
 */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  for (const line of proseOf(markdown).split('\n')) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)
    if (!heading) continue
    const text = heading[1]!
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<[^>]+>/g, '')
      .replace(/[`*]/g, '')
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-')
    const count = seen.get(slug) ?? 0
    seen.set(slug, count + 1)
    anchors.add(count === 0 ? slug : `${slug}-${count}`)
  }
  for (const html of markdown.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(html[1]!)
  return anchors
}

/** Every link and image target in the prose (inline code and fenced blocks left out), with its line. */
export function linksOf(markdown: string): Array<{ target: string; line: number }> {
  const links: Array<{ target: string; line: number }> = []
  proseOf(markdown)
    .split('\n')
    .forEach((line, index) => {
      const withoutCode = line.replace(/`[^`]*`/g, '')
      for (const match of withoutCode.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g))
        links.push({ target: match[1]!, line: index + 1 })
      for (const match of withoutCode.matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/g))
        links.push({ target: match[1]!, line: index + 1 })
    })
  return links
}

/** README.md and every Markdown file under docs/, as paths relative to the project root. */
export function documentationFiles(): string[] {
  const found = ['README.md']
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(projectRoot, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (entry.name.endsWith('.md')) found.push(path)
    }
  }
  walk('docs')
  return found
}

export function readDoc(path: string): string {
  return readFileSync(join(projectRoot, path), 'utf8')
}

/**
 * Whether `actual` is the answer a page shows as `expected`: the same text, where each `…` in
 * `expected` stands for a value that differs on each run (an id, a time, a token) and matches one
 * or more characters other than a quote, comma, bracket, brace or white space. Trailing white
 * space and line endings are not compared.
 */
export function matchesShownAnswer(actual: string, expected: string): boolean {
  const normalize = (text: string) =>
    text
      .split('\n')
      .map((line) => line.trimEnd())
      .join('\n')
      .trim()
  const pattern = normalize(expected)
    .split('…')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^"\',{}\\[\\]\\s]+')
  return new RegExp(`^${pattern}$`).test(normalize(actual))
}
