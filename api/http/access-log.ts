import { LogController, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { lazyChild, requestFields, writeAccessLine, type Logger } from '../../shared/logging/index.js';

/**
 * Fastify's request logging, cut to one access line per request. Fastify writes two info lines per
 * request ("incoming request" when it arrives, "request completed" when it is answered); we write
 * only the second, carrying the request (method, redacted URL, peer) beside status and duration,
 * after the response has gone out. Answers with a 5xx status and responses that failed are logged
 * at error, so they are kept at every level; the rest at info. Fastify's other lines (stream and
 * serializer errors, header failures) are unchanged.
 *
 * The line is written by hand in pino's shape (shared/logging/lines.ts), and a request's own
 * logger is made only when the request logs (`requestLogger`): most requests log nothing else.
 */
export class AccessLogController extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const { statusCode, elapsedTime: responseTime } = reply;
    if (error) {
      reply.log.error({ req: request, res: { statusCode }, responseTime, err: error }, 'request errored');
      return;
    }
    const level = statusCode >= 500 ? 'error' : 'info';
    const line = { idLabel: this.requestIdLogLabel, id: String(request.id), req: requestFields(request), statusCode, responseTime };
    if (!writeAccessLine(request.server.log as Logger, level, line)) reply.log[level]({ req: request, res: { statusCode }, responseTime }, 'request completed');
  }
}

/** Fastify's `childLoggerFactory`: each request's logger, made when it first logs. */
export const requestLogger: NonNullable<FastifyServerOptions['childLoggerFactory']> = (logger, bindings, options) => lazyChild(logger as Logger, bindings, options);
