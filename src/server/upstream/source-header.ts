/** The header every answer of the service API carries: who made it (docs/upstream.md). */
export const SOURCE_HEADER_NAME = 'x-emulator-source'
