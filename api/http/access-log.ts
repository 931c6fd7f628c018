import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * Fastify's request logging, cut to one access line per request. Fastify writes two info lines per
 * request ("incoming request" when it arrives, "request completed" when it is answered); we write
 * only the second, carrying the request (method, redacted URL, peer) beside status and duration,
 * after the response has gone out. Answers with a 5xx status and responses that failed are logged
 * at error, so they are kept at every level; the rest at info. Fastify's other lines (stream and
 * serializer errors, header failures) are unchanged.
 */
export class AccessLogController extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const line = { req: request, res: { statusCode: reply.statusCode }, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else if (reply.statusCode >= 500) reply.log.error(line, 'request completed');
    else reply.log.info(line, 'request completed');
  }
}
