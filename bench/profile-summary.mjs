#!/usr/bin/env node
// Summarises a V8 .cpuprofile (node --cpu-prof): where the time went, by function (self time),
// by module (self time), and which of the emulator's own functions cost the most including
// what they call (inclusive time, each sample counted once per function however deep it recurses).
// Usage: node bench/profile-summary.mjs FILE.cpuprofile [--top N] [--from MS] [--to MS] [--requests N]
//   --from/--to keep the samples taken that many ms after the process started (the bench passes
//   the load's window); --requests turns the CPU time into microseconds per request.
import { readFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'

import { projectRoot } from './lib/paths.mjs'

/**
 * @typedef {{ name: string, ms: number, pct: number }} Row
 * @typedef {{ file: string, window: { fromMs: number, toMs: number } | null, totalMs: number, samples: number, requests: number | null,
 *   cpuUsPerRequest: number | null, topSelf: Row[], byModule: Row[], topEmulatorInclusive: Row[] }} ProfileSummary
 */

/** Where a frame's code lives, short: out/main/chunks/x.js:12, node_modules/fastify/..., node:internal/... */
function where(url) {
  if (!url) return ''
  const path = url.startsWith('file://') ? decodeURIComponent(new URL(url).pathname) : url
  return path.startsWith(projectRoot) ? path.slice(projectRoot.length) : path
}

/** The module a frame belongs to: a package, the emulator bundle, Node internals or V8's own. */
function moduleOf(callFrame) {
  const path = where(callFrame.url)
  if (!path)
    return callFrame.functionName.startsWith('(')
      ? callFrame.functionName
      : '(native: V8 builtins, better-sqlite3 C++ calls)'
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)
  if (pkg) return `npm:${pkg[1]}`
  if (path.startsWith('out/main')) return 'emulator (out/main)'
  if (path.startsWith('node:')) return 'node internals'
  return path
}

const frameName = (callFrame) => {
  const path = where(callFrame.url)
  const name = callFrame.functionName || '(anonymous)'
  return path ? `${name}  ${path}:${callFrame.lineNumber + 1}` : name
}

const rows = (map, totalMs, top) =>
  [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, us]) => ({ name, ms: Math.round(us / 100) / 10, pct: Math.round((us / 1000 / totalMs) * 1000) / 10 }))

/**
 * @param {string} file
 * @param {{ top?: number, fromMs?: number, toMs?: number, requests?: number }} [options]
 * @returns {ProfileSummary}
 */
export function summariseProfile(file, { top = 15, fromMs = 0, toMs = Infinity, requests } = {}) {
  const profile = JSON.parse(readFileSync(file, 'utf8'))
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]))
  const parent = new Map()
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id)

  const self = new Map()
  const modules = new Map()
  const inclusive = new Map()
  let totalUs = 0
  let samples = 0
  let atUs = 0
  profile.samples.forEach((id, i) => {
    // timeDeltas[i] is the time since the previous sample: charge it to this sample's frame.
    const us = Math.max(0, profile.timeDeltas[i] ?? 0)
    atUs += profile.timeDeltas[i] ?? 0
    if (atUs / 1000 < fromMs || atUs / 1000 > toMs) return
    const node = nodes.get(id)
    if (!node || node.callFrame.functionName === '(idle)') return
    samples += 1
    totalUs += us
    self.set(frameName(node.callFrame), (self.get(frameName(node.callFrame)) ?? 0) + us)
    const module = moduleOf(node.callFrame)
    modules.set(module, (modules.get(module) ?? 0) + us)
    const seen = new Set()
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const frame = nodes.get(at).callFrame
      if (!where(frame.url).startsWith('out/main')) continue
      const name = frameName(frame)
      if (seen.has(name)) continue
      seen.add(name)
      inclusive.set(name, (inclusive.get(name) ?? 0) + us)
    }
  })
  const totalMs = totalUs / 1000
  return {
    file,
    window: fromMs > 0 || toMs !== Infinity ? { fromMs, toMs } : null,
    totalMs: Math.round(totalMs),
    samples,
    requests: requests ?? null,
    cpuUsPerRequest: requests ? Math.round(totalUs / requests) : null,
    topSelf: rows(self, totalMs, top),
    byModule: rows(modules, totalMs, 10),
    topEmulatorInclusive: rows(inclusive, totalMs, top)
  }
}

/** Plain-text rendering for the console. */
export function formatSummary(summary) {
  const section = (title, list) => [
    `  ${title}`,
    ...list.map((r) => `    ${String(r.pct).padStart(5)}%  ${String(r.ms).padStart(9)} ms  ${r.name}`)
  ]
  return [
    `${where(summary.file)}: ${summary.totalMs} ms on CPU (idle excluded), ${summary.samples} samples` +
      (summary.window ? `, ms ${summary.window.fromMs}-${summary.window.toMs} of the process` : '') +
      (summary.cpuUsPerRequest !== null
        ? `, ${summary.requests} requests: ${summary.cpuUsPerRequest} us of CPU per request`
        : ''),
    ...section('top self time (function):', summary.topSelf),
    ...section('self time by module:', summary.byModule),
    ...section('emulator functions, inclusive time:', summary.topEmulatorInclusive)
  ].join('\n')
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      top: { type: 'string', default: '15' },
      from: { type: 'string' },
      to: { type: 'string' },
      requests: { type: 'string' }
    }
  })
  if (positionals.length === 0) {
    process.stderr.write(
      'Usage: node bench/profile-summary.mjs FILE.cpuprofile [--top N] [--from MS] [--to MS] [--requests N]\n'
    )
    process.exit(2)
  }
  const options = {
    top: Number(values.top),
    ...(values.from ? { fromMs: Number(values.from) } : {}),
    ...(values.to ? { toMs: Number(values.to) } : {}),
    ...(values.requests ? { requests: Number(values.requests) } : {})
  }
  for (const file of positionals) process.stdout.write(`${formatSummary(summariseProfile(file, options))}\n\n`)
}
