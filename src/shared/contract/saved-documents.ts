/**
 * Scenario and recording documents as people save them: from the UI, from an editor, or straight
 * from a control-plane answer with `curl -o`. One reading for the command line and the server.
 */

/** Where the control plane's answers carry a scenario: GET /_emulator/state, a recording made into a scenario. */
export const SCENARIO_ANSWER_MEMBERS = ['state', 'scenario'] as const
/** Where GET /_emulator/recordings/:id carries its recording. */
export const RECORDING_ANSWER_MEMBERS = ['recording'] as const

/** JSON text of a saved document; a UTF-8 byte order mark (as Windows editors save) is no part of it. */
export function parseSavedJson(text: string): unknown {
  return JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text) as unknown
}

/**
 * The document `value` holds: itself, or, for a saved answer of the control plane (`{ "ok": true,
 * "state": <document> }`), the document in the member named. A value with a `format` is a
 * document already and is never unwrapped.
 */
export function documentIn(value: unknown, members: readonly string[]): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || 'format' in value) return value
  const record = value as Record<string, unknown>
  const member = members.find((name) => name in record)
  return member === undefined ? value : record[member]
}
