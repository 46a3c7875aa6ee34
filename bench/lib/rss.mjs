// Resident memory of another process, read from /proc/<pid>/status (Linux; `ps` elsewhere).
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'

const KIB = 1024

/**
 * VmRSS (now) and VmHWM (the kernel's own peak since start) in bytes.
 * @param {number} pid
 * @returns {{ rss: number, peak: number | null }}
 */
export function readRss(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const field = (name) => {
      const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)
      return match ? Number(match[1]) * KIB : null
    }
    return { rss: field('VmRSS') ?? 0, peak: field('VmHWM') }
  } catch {
    // No procfs (macOS): ps answers RSS in KiB and knows no peak.
    const out = execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' })
    return { rss: Number(out.trim()) * KIB, peak: null }
  }
}

/**
 * Samples RSS every `intervalMs` until stopped; answers the largest sample, and the kernel's
 * peak where it has one (a sample can miss a short spike; VmHWM cannot).
 * @param {number} pid
 * @param {number} [intervalMs]
 */
export function sampleRss(pid, intervalMs = 200) {
  let max = readRss(pid).rss
  const timer = setInterval(() => {
    try {
      max = Math.max(max, readRss(pid).rss)
    } catch {
      // The process ended: keep what was seen.
    }
  }, intervalMs)
  return {
    stop() {
      clearInterval(timer)
      let peak = null
      try {
        const last = readRss(pid)
        max = Math.max(max, last.rss)
        peak = last.peak
      } catch {
        // Ended.
      }
      return { maxSampled: max, kernelPeak: peak }
    }
  }
}

export const mib = (bytes) => (bytes === null || bytes === undefined ? null : Math.round((bytes / KIB / KIB) * 10) / 10)
