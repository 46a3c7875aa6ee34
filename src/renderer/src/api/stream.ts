import type { RequestSummary } from './types'

export interface StreamHandlers {
  onEntry(entry: RequestSummary): void
  onState(state: 'connecting' | 'live' | 'reconnecting'): void
}

/**
 * The request inspector's live feed (GET /_emulator/requests/stream, `event: request`).
 * EventSource reconnects by itself (sending Last-Event-ID, so nothing is missed).
 * Answers a function that closes it.
 */
export function openRequestStream(url: string, handlers: StreamHandlers): () => void {
  handlers.onState('connecting')
  const source = new EventSource(url)
  source.onopen = () => handlers.onState('live')
  source.onerror = () => handlers.onState(source.readyState === EventSource.CLOSED ? 'connecting' : 'reconnecting')
  source.addEventListener('request', (event) => {
    try {
      handlers.onEntry(JSON.parse((event as MessageEvent<string>).data) as RequestSummary)
    } catch {
      // A malformed event: skip it rather than stop the feed.
    }
  })
  return () => source.close()
}
