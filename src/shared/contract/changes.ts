/**
 * What the change feed announces (GET /_emulator/events, `event: change`): every change to the
 * emulator's state, whoever made it. The UI reloads what a change touches; an `everything`
 * change (reset, preset, import) also starts every screen's own state over.
 */

export const ENTITY_KINDS = [
  'developer',
  'product',
  'credential',
  'connection',
  'customer',
  'order',
  'subscription',
  'entitlement',
  'license',
  'activation',
  'file'
] as const
export type EntityKind = (typeof ENTITY_KINDS)[number]

export const WHOLE_STATE_CAUSES = ['reset', 'preset', 'import'] as const
export type WholeStateCause = (typeof WHOLE_STATE_CAUSES)[number]

export type Change =
  /** Rows of one kind changed; `id` is the entity's id, or null when many (or an unknown one) changed. */
  | { kind: 'entity'; entity: EntityKind; id: string | null }
  /** The whole state was replaced: every screen starts over. */
  | { kind: 'everything'; cause: WholeStateCause }
  | { kind: 'clock' }
  | { kind: 'faults' }
  | { kind: 'settings' }
  /** The upstream setting (docs/upstream.md): forwarding turned on, off or pointed elsewhere. */
  | { kind: 'upstream' }

/** One `event: change` of the stream: the changes of one short interval, coalesced. */
export interface ChangeBatch {
  /** Increases by one per batch since the server started. */
  seq: number
  changes: Change[]
}
