import { existsSync, statSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'
import { describe, expect, it } from 'vitest'

import { projectRoot } from '../support/cli-process'
import { documentationFiles, headingAnchors, linksOf, readDoc } from '../support/markdown-docs'

// Every relative link and #anchor in README.md and docs/**/*.md leads somewhere: the file or
// folder exists in the repository, and an anchor is a heading of the target as GitHub slugs it
// (docs/testing.md, "The docs are tested"). Links to other sites are not followed.

const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i

describe('the documentation links', () => {
  const files = documentationFiles()

  it('covers the README and the docs pages', () => {
    expect(files).toContain('README.md')
    expect(files).toContain(join('docs', 'api.md'))
    expect(files).toContain(join('docs', 'cli.md'))
  })

  it.each(files)('%s: every relative link and anchor resolves', (file) => {
    const broken: string[] = []
    for (const { target, line } of linksOf(readDoc(file))) {
      if (EXTERNAL.test(target)) continue
      const [pathPart = '', anchor] = target.split('#', 2)
      const path = decodeURIComponent(pathPart)
      const resolved = path === '' ? file : normalize(join(dirname(file), path))
      const absolute = join(projectRoot, resolved)
      if (resolved.startsWith('..') || !existsSync(absolute)) {
        broken.push(`${file}:${line}: ${target} (no ${resolved})`)
        continue
      }
      if (anchor === undefined || anchor === '') continue
      if (statSync(absolute).isDirectory() || !resolved.endsWith('.md')) {
        broken.push(`${file}:${line}: ${target} (an anchor into a file that is not Markdown)`)
        continue
      }
      if (!headingAnchors(readDoc(resolved)).has(decodeURIComponent(anchor)))
        broken.push(`${file}:${line}: ${target} (no heading of ${resolved} makes #${anchor})`)
    }
    expect(broken).toEqual([])
  })
})

describe('the GitHub anchor rules this test applies', () => {
  it('slugs headings as GitHub does', () => {
    const anchors = headingAnchors(
      [
        '# The command line',
        '## 1. Envelope and errors',
        "## A JUCE plugin's job: the emulator as a CTest fixture",
        '### For scripts: `--ready-json`',
        '## Starting and stopping `serve`',
        '## Set up',
        '## Set up',
        '```sh',
        '# not a heading',
        '```'
      ].join('\n')
    )
    expect([...anchors]).toEqual([
      'the-command-line',
      '1-envelope-and-errors',
      'a-juce-plugins-job-the-emulator-as-a-ctest-fixture',
      'for-scripts---ready-json',
      'starting-and-stopping-serve',
      'set-up',
      'set-up-1'
    ])
  })
})
