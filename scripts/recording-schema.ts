// Prints the recording document's JSON Schema (resources/recording.schema.json): `npm run schema:recording`.
import { recordingJsonSchema } from '../src/shared/schemas/recordings'

process.stdout.write(recordingJsonSchema())
