/**
 * `serve`'s exit codes, so a script can tell why the emulator did not start without reading its
 * messages. Documented in docs/cli.md ("Exit codes") and in `serve --help`.
 */
export const EXIT = {
  /** Stopped by SIGTERM or SIGINT after a clean shutdown (or a command that ran fine). */
  ok: 0,
  /** Anything not listed below. */
  failed: 1,
  /** An unknown option or a bad option value; the usage text follows the message. */
  usage: 2,
  /** The port is taken by another process. */
  portInUse: 3,
  /** The --scenario file cannot be read, is not JSON, or is not a valid scenario. */
  badScenario: 4,
  /** The database is locked by another process, or is not a database SQLite can open. */
  databaseUnavailable: 5
} as const

/** The --scenario file cannot be read or loaded. */
export class ScenarioError extends Error {}
