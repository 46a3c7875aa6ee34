import type { Readable } from 'node:stream'
import type { FastifyReply } from 'fastify'

import type { FaultHit } from '../../core/faults/fault-rules'
import { answerFault, waitWhileConnected } from '../plugins/fault-injection'
import { discard } from './forward-request'
import { SOURCE_HEADER_NAME } from './source-header'

/**
 * A fault rule of stage `after` on a forwarded request (docs/upstream.md): the upstream has
 * answered (the activation happened), and the rule now decides what the client hears. latency
 * waits, then passes the answer on; trickle passes it on slowly (the fault injector's onSend);
 * error, rate_limit and offline read the upstream's answer to its end (its copy still goes to the
 * observers) and answer as they would before the service.
 */
export function afterStageFault(
  reply: FastifyReply,
  hit: FaultHit,
  upstream: Readable,
  tapped: (stream: Readable) => Readable,
  upstreamHeaderNames: readonly string[]
): void {
  // `tapped` ties the upstream's answer and its copy together (throughTap): an error of one destroys the other.
  const passOn = () => void reply.send(tapped(upstream))
  const { rule, delayMs } = hit
  if (rule.kind === 'trickle') return passOn()
  void (async () => {
    if (delayMs > 0 && !(await waitWhileConnected(reply, delayMs))) {
      discard(upstream)
      reply.hijack()
      return
    }
    if (rule.kind === 'latency') return passOn()
    // The upstream's answer is read (and watched) but never reaches the client.
    tapped(upstream).resume()
    for (const name of upstreamHeaderNames) reply.removeHeader(name)
    reply.removeHeader(SOURCE_HEADER_NAME)
    answerFault(reply.request, reply, rule)
  })()
}
