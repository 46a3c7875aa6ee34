import { isMainThread } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'

// @ts-expect-error -- bench/ is plain .mjs with no declarations (tsconfig has no allowJs); typed narrowly below.
import * as untypedProcessCpu from '../../bench/lib/process-cpu.mjs'

const { cpuUsPerRequestByThread, readCpuSeconds, readThreadCpuSeconds, THREAD_KINDS } = untypedProcessCpu as {
  cpuUsPerRequestByThread: (
    before: Record<string, number> | null,
    after: Record<string, number> | null,
    requests: number
  ) => Record<string, number> | null
  readCpuSeconds: (pid: number) => number | null
  readThreadCpuSeconds: (pid: number) => Record<string, number> | null
  THREAD_KINDS: string[]
}

describe('bench: server CPU by thread', () => {
  // Skipped off Linux: thread CPU is read from /proc, which other systems lack.
  it.skipIf(process.platform !== 'linux' /* read from /proc */)(
    "reads every kind of thread, the main thread's share among them, adding up to the process's",
    () => {
      const spin = (ms: number) => {
        const end = Date.now() + ms
        while (Date.now() < end) Math.sqrt(Math.random())
      }
      const before = readThreadCpuSeconds(process.pid)
      spin(300)
      const threads = readThreadCpuSeconds(process.pid)
      const whole = readCpuSeconds(process.pid)
      expect(Object.keys(threads ?? {})).toEqual(THREAD_KINDS)
      // The spin's thread: the main one in vitest's forks pool, an unnamed worker in its threads pool.
      const spun = isMainThread ? 'main' : 'other'
      expect((threads?.[spun] ?? 0) - (before?.[spun] ?? 0)).toBeGreaterThan(0.15)
      const sum = Object.values(threads ?? {}).reduce((total, seconds) => total + seconds, 0)
      // Read one after the other, and threads that ended took their seconds with them.
      expect(sum).toBeLessThanOrEqual((whole ?? 0) + 0.05)
      expect(sum).toBeGreaterThan((whole ?? 0) * 0.5)
    }
  )

  it('answers null where a process has no /proc entry', () => {
    expect(readThreadCpuSeconds(2 ** 22 + 12345)).toBeNull()
  })

  it('turns two readings into microseconds a request by kind, never below zero', () => {
    const before = { main: 1, requestLog: 0.5, libuvPool: 0, v8Helpers: 0, other: 0.2 }
    const after = { main: 3.26, requestLog: 1.27, libuvPool: 0, v8Helpers: 0, other: 0.1 }
    expect(cpuUsPerRequestByThread(before, after, 10_000)).toEqual({
      main: 226,
      requestLog: 77,
      libuvPool: 0,
      v8Helpers: 0,
      other: 0
    })
    expect(cpuUsPerRequestByThread(null, after, 10_000)).toBeNull()
    expect(cpuUsPerRequestByThread(before, after, 0)).toBeNull()
  })
})
