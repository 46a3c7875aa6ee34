import type { TestEmulator } from './emulator'

export interface StreamEvent {
  id: number
  event: string
  data: Record<string, any>
}

/** Reads a server-sent event response with fetch and a reader; `until` resolves once a condition holds. */
export async function openEventStream(
  emu: TestEmulator,
  pathAndQuery: string,
  headers: Record<string, string> = { 'x-emulator-token': emu.adminToken }
) {
  const controller = new AbortController()
  const response = await fetch(`${emu.baseUrl}${pathAndQuery}`, { headers, signal: controller.signal })
  const events: StreamEvent[] = []
  let raw = ''
  let buffer = ''
  const reader = response.ok && response.body ? response.body.getReader() : null
  const decoder = new TextDecoder()
  return {
    response,
    events,
    raw: () => raw,
    async until(predicate: (events: StreamEvent[]) => boolean): Promise<void> {
      if (!reader) throw new Error(`stream refused: ${response.status}`)
      while (!predicate(events)) {
        const { value, done } = await reader.read()
        if (done) throw new Error('the stream ended')
        const text = decoder.decode(value, { stream: true })
        raw += text
        buffer += text
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          const fields: Record<string, string> = Object.fromEntries(
            block
              .split('\n')
              .filter((line) => line !== '' && !line.startsWith(':'))
              .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trimStart()])
          )
          if (fields.event && fields.data)
            events.push({ id: Number(fields.id), event: fields.event, data: JSON.parse(fields.data) })
        }
      }
    },
    close: () => controller.abort()
  }
}
