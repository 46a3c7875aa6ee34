import { HTTP_STATUS_BY_CODE } from './http-status'
import { TRANSPORT_STATUS_BY_CODE } from './transport-codes'

/**
 * Every `error` code the server can answer: the domain's and the transport's. The OpenAPI
 * document's ErrorResponse lists them, and a test checks the README documents each.
 */
export const ERROR_CODES: readonly string[] = [...Object.keys(HTTP_STATUS_BY_CODE), ...Object.keys(TRANSPORT_STATUS_BY_CODE)].sort()
