import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'

import { generatedByteStream } from '../../core/downloads/generated-bytes'
import { DomainError } from '../../core/errors/domain-error'
import { shownId } from '../../core/redaction/shown-id'
import { ERROR_ANSWERS, errorAnswers } from '../../shared/schemas/error-answers'
import { DownloadHeaders, DownloadParams, DownloadQuery, FileBytesResponse } from '../../shared/schemas/library'
import { DOWNLOAD } from '../auth/route-tokens'
import { requestCustomer } from '../auth/token-auth'
import { TransportError } from '../errors/transport-codes'
import { parseByteRange } from '../http/byte-range'

/** Entitlement-gated delivery: the library's download links land here (docs/api.md section 4). */
export const downloadRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { files, entitlements } = app.core

  app.route({
    method: ['GET', 'HEAD'],
    url: '/:fileId',
    config: { tokens: DOWNLOAD },
    schema: {
      tags: ['Downloads'],
      summary: 'Download a product file (download token; active entitlement required; Range supported)',
      params: DownloadParams,
      headers: DownloadHeaders,
      querystring: DownloadQuery,
      response: {
        200: FileBytesResponse('The whole file.'),
        206: FileBytesResponse('The requested byte range (Content-Range names it).'),
        ...errorAnswers(
          ERROR_ANSWERS.validation,
          ERROR_ANSWERS.libraryTokenInvalid,
          ERROR_ANSWERS.entitlementRequired,
          ERROR_ANSWERS.fileNotFound,
          ERROR_ANSWERS.rangeNotSatisfiable
        )
      }
    },
    handler: async (request, reply) => {
      const { customer, scope } = requestCustomer(request)
      const file = files.find(request.params.fileId)
      if (!file)
        throw new DomainError('FILE_NOT_FOUND', `No file has the id ${shownId(request.params.fileId, 'file')}.`)
      entitlements.requireDownload(customer.id, file.productId, scope?.vendorId ?? null)
      const range = parseByteRange(request.headers.range, file.sizeBytes)
      if (range === 'unsatisfiable') {
        reply.header('content-range', `bytes */${file.sizeBytes}`)
        throw new TransportError(
          'RANGE_NOT_SATISFIABLE',
          `The requested range is outside the file's ${file.sizeBytes} bytes.`
        )
      }
      const start = range?.start ?? 0
      const end = range?.end ?? file.sizeBytes - 1
      reply
        .code(range ? 206 : 200)
        .header('accept-ranges', 'bytes')
        .header('content-type', 'application/octet-stream')
        .header('content-disposition', `attachment; filename="${file.filename.replace(/"/g, '')}"`)
        .header('content-length', String(Math.max(0, end - start + 1)))
        .header('cache-control', 'private, no-store')
      if (range) reply.header('content-range', `bytes ${start}-${end}/${file.sizeBytes}`)
      if (request.method === 'HEAD' || file.sizeBytes === 0) return reply.send()
      return reply.send(generatedByteStream(file.id, start, end))
    }
  })
}
