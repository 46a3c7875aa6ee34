import type { Static } from 'typebox'

import type { RecordingDocument } from '../../core/recordings/recording-format'
import type { ReplaySettings } from '../../core/recordings/replay'
import type { ReplayStateSchema } from '../../shared/schemas/recordings'

/** What is being replayed (docs/upstream.md): read by GET /_emulator/replay and the UI. */
export type ReplayState = Static<typeof ReplayStateSchema>

/** The replay in force, decorated as `app.replay`; set by PUT /_emulator/replay and `serve --replay`. */
export interface ReplayControl {
  state(): ReplayState
  /** Puts a recording in force (null: none). The document is checked first: a 400 names what is wrong. */
  set(document: RecordingDocument | null, settings: ReplaySettings): ReplayState
}

declare module 'fastify' {
  interface FastifyInstance {
    replay: ReplayControl
  }
  interface FastifyRequest {
    /** The body replay read before routing, handed to the parser again when the emulator answers. */
    replayBody: Buffer | null
  }
}
