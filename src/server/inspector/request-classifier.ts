import type { RequestClassifier } from '../../core/inspector/types'
import { authKindOf } from './auth-kind'
import { surfaceOf } from './surfaces'

/** The server's request classifier, handed to the request log with each capture. */
export const requestClassifier: RequestClassifier = { surfaceOf, authKindOf }
