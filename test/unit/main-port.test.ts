import { createServer } from 'node:net'
import type { Server } from 'node:net'
import Fastify from 'fastify'
import type { FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it, vi } from 'vitest'

import { listenOnPreferredPort } from '../../src/main/port'

// Real sockets on 127.0.0.1: a port is "taken" because another listener really holds it.

const blockers: Server[] = []
const apps: FastifyInstance[] = []

async function hold(port: number): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => resolve())
  })
  blockers.push(server)
  const address = server.address()
  if (!address || typeof address !== 'object') throw new Error('no address')
  return address.port
}

/** A free run of `count` consecutive ports (held briefly to find them, then released). */
async function freeRun(count: number): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const probe = createServer()
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()))
    const address = probe.address()
    await new Promise<void>((resolve) => probe.close(() => resolve()))
    if (!address || typeof address !== 'object' || address.port + count > 65535) continue
    const start = address.port
    const held: Server[] = []
    let ok = true
    for (let port = start; port < start + count; port += 1) {
      const server = createServer()
      const bound = await new Promise<boolean>((resolve) => {
        server.once('error', () => resolve(false))
        server.listen(port, '127.0.0.1', () => resolve(true))
      })
      if (!bound) {
        ok = false
        break
      }
      held.push(server)
    }
    await Promise.all(held.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))))
    if (ok) return start
  }
  throw new Error('no free run of ports')
}

function app(): FastifyInstance {
  const instance = Fastify()
  instance.get('/', async () => ({ ok: true }))
  apps.push(instance)
  return instance
}

afterEach(async () => {
  await Promise.all(apps.splice(0).map((instance) => instance.close()))
  await Promise.all(blockers.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))))
})

describe('listenOnPreferredPort', () => {
  it('takes the preferred port when it is free', async () => {
    const preferred = await freeRun(1)
    const url = await listenOnPreferredPort(app(), { host: '127.0.0.1', preferredPort: preferred })
    expect(url).toBe(`http://127.0.0.1:${preferred}`)
    expect((await fetch(url)).status).toBe(200)
  })

  it('takes the next free port when the preferred one is taken', async () => {
    const preferred = await freeRun(3)
    await hold(preferred)
    await hold(preferred + 1)
    const url = await listenOnPreferredPort(app(), { host: '127.0.0.1', preferredPort: preferred })
    expect(url).toBe(`http://127.0.0.1:${preferred + 2}`)
    expect(await (await fetch(url)).json()).toEqual({ ok: true })
  })

  it('lets the OS pick a port when every port it tries is taken', async () => {
    const preferred = await freeRun(2)
    await hold(preferred)
    await hold(preferred + 1)
    const url = await listenOnPreferredPort(app(), { host: '127.0.0.1', preferredPort: preferred, attempts: 2 })
    const port = Number(new URL(url).port)
    expect(port).not.toBe(preferred)
    expect(port).not.toBe(preferred + 1)
    expect((await fetch(url)).status).toBe(200)
  })

  it('passes on errors that are not about the port', async () => {
    const failing = { listen: vi.fn(async () => Promise.reject(Object.assign(new Error('boom'), { code: 'EINVAL' }))) }
    await expect(listenOnPreferredPort(failing, { host: '127.0.0.1', preferredPort: 4747 })).rejects.toThrow('boom')
    expect(failing.listen).toHaveBeenCalledTimes(1)
  })

  it('never tries past port 65535', async () => {
    const taken = Object.assign(new Error('taken'), { code: 'EADDRINUSE' })
    const ports: number[] = []
    const fakeServer = {
      listen: async ({ port }: { host: string; port: number }) => {
        ports.push(port)
        if (port !== 0) throw taken
        return 'http://127.0.0.1:40000'
      }
    }
    await listenOnPreferredPort(fakeServer, { host: '127.0.0.1', preferredPort: 65534 })
    expect(ports).toEqual([65534, 65535, 0])
  })
})
