/**
 * The request log's worker entry as the bundle holds it: electron-vite builds the worker's module
 * on its own (only what it imports) and answers its path here. Run from the sources, vitest.config.ts
 * answers the TypeScript module's path instead.
 */
import entry from '../../core/inspector/request-log-worker?modulePath'

export const requestLogWorkerEntry: string = entry
