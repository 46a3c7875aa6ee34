import fp from 'fastify-plugin'

import type { RecordingWriteNotice } from '../../core/recordings/recording-writer'

/**
 * Recording (docs/upstream.md): registered after the upstream plugin, it hands every forwarded
 * exchange to the core's recordings, which keep it (fingerprinted) while a recording runs, with
 * the size and SHA-256 the forwarding counted of its whole bodies (its copies stop at 1 MiB).
 * While storage refuses writes the core keeps exchanges in memory; this logs when they start
 * waiting and when they are written (one line each per episode: the request log's background
 * writes report no episode of their own), and, on close, lets the core write them before the
 * store closes (this plugin's onClose runs before the root's, which closes the store).
 */
export const recordingObserver = fp(
  async (app) => {
    const { recordings } = app.core
    app.upstream.addObserver({ observe: (exchange) => recordings.observe(exchange) })
    const stopListening = recordings.onNotice((notice) => logNotice(app.log, notice))
    app.addHook('onClose', async () => {
      const report = await recordings.close()
      stopListening()
      if (report.written > 0) {
        app.log.warn({ exchanges: report.written }, 'recording: exchanges that waited for storage are written')
      }
      if (report.lost.size === 0 && report.refused.size === 0) return
      // Recording ids and counts only; refused counts are named only when they could not reach the recording.
      const counts = {
        ...(report.lost.size > 0 ? { lost: Object.fromEntries(report.lost) } : {}),
        ...(report.refused.size > 0 && report.savedIn !== 'database'
          ? { refused: Object.fromEntries(report.refused) }
          : {})
      }
      if (report.savedIn === 'database') {
        if (report.lost.size === 0) return
        app.log.error(
          counts,
          "recording: storage still refused writes at close: exchanges lost, counted in the recording's lost"
        )
      } else if (report.savedIn === 'file') {
        if (report.lost.size > 0) {
          app.log.error(
            counts,
            "recording: storage still refused writes at close: exchanges lost, counted beside the database; the next start adds them to the recording's lost"
          )
        } else {
          app.log.warn(
            counts,
            "recording: storage still refused writes at close: the count of refused exchanges is kept beside the database; the next start adds it to the recording's refused"
          )
        }
      } else {
        app.log.error(
          { ...counts, reason: report.reason },
          'recording: storage still refused writes at close: exchanges lost or refused, and their count could not be saved'
        )
      }
    })
  },
  { name: 'recording-observer', dependencies: ['emulator-context', 'replay'] }
)

function logNotice(log: { warn: (fields: object, message: string) => void }, notice: RecordingWriteNotice): void {
  switch (notice.kind) {
    case 'waiting':
      log.warn(
        { storage: notice.code, exchanges: notice.exchanges },
        'recording: storage refuses writes: forwarded exchanges wait in memory and are written once it takes them'
      )
      return
    case 'over-limit':
      log.warn(
        { recording: notice.recordingId, limit: notice.limits },
        "recording: more exchanges wait than memory holds: the newest are counted in the recording's lost"
      )
      return
    case 'written':
      log.warn(
        { exchanges: notice.exchanges, lost: notice.lost },
        'recording: storage takes writes again: the exchanges that waited are written'
      )
      return
    case 'waiting-at-close':
      log.warn(
        { exchanges: notice.exchanges },
        "recording: another program holds the database's write lock: waiting for it (up to the storage busy timeout) to write what recordings still keep (serve: a second Ctrl+C stops waiting)"
      )
      return
    case 'error':
      log.warn(
        {
          err: { message: notice.error instanceof Error ? notice.error.message : String(notice.error) },
          lost: notice.lost
        },
        "recording: exchanges could not be written: counted in the recording's lost"
      )
  }
}
