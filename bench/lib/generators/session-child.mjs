#!/usr/bin/env node
// A plugin's CI session, one call at a time on one keep-alive connection, in a process of its own
// (bench/lib/phase-session.mjs). Reads a JSON file { baseUrl, steps, sessions, warmupSessions }:
// each step { method, path, headers, body, expectStatus, times }; a body string's UNIQUE_MARKER
// ({n}) becomes the session's own number, so each session activates a new instance. Prints one
// SESSION_RESULT line of JSON: every measured session's wall time in ms, and the failed answers.
import { readFileSync } from 'node:fs'
import { Agent, request } from 'node:http'

const plan = JSON.parse(readFileSync(process.argv[2], 'utf8'))
const tag = process.argv[3] ?? 'session'
const agent = new Agent({ keepAlive: true, maxSockets: 1 })
const base = new URL(plan.baseUrl)

function call(step, body) {
  return new Promise((resolve, reject) => {
    const headers = { ...step.headers }
    if (body !== undefined) {
      headers['content-type'] = 'application/json'
      headers['content-length'] = Buffer.byteLength(body)
    }
    const req = request(
      { agent, host: base.hostname, port: base.port, method: step.method, path: step.path, headers },
      (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode))
      }
    )
    req.on('error', reject)
    req.end(body)
  })
}

async function session(number) {
  let failed = 0
  const started = performance.now()
  for (const step of plan.steps) {
    const body = step.body === undefined ? undefined : step.body.replaceAll('{n}', `${tag}-${number}`)
    for (let i = 0; i < (step.times ?? 1); i++) {
      if ((await call(step, body)) !== (step.expectStatus ?? 200)) failed++
    }
  }
  return { ms: performance.now() - started, failed }
}

let failures = 0
for (let n = 0; n < plan.warmupSessions; n++) failures += (await session(`warm-${n}`)).failed
const sessionsMs = []
for (let n = 0; n < plan.sessions; n++) {
  const { ms, failed } = await session(n)
  sessionsMs.push(Math.round(ms * 10) / 10)
  failures += failed
}
agent.destroy()
process.stdout.write(`SESSION_RESULT ${JSON.stringify({ sessionsMs, failures })}\n`)
