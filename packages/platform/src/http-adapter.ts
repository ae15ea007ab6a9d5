import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { FastifyError, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { answerClientError, answerConnect } from './client-errors';
import { decodeContentEncodings } from './content-encodings';
import { PROBLEM_CONTENT_TYPE, problemFor } from './problem-details';

/** Fastify's own default, named: a longer path segment is answered 414 (no id, code or token of the API comes near). */
export const MAX_PATH_PARAMETER_LENGTH = 100;

/**
 * The router's refusals, answered before any route or Nest filter runs: problem+json instead of Fastify's JSON,
 * and without the path, which may be 16 KB long.
 */
function answerFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const [status, detail] =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? [414, `A path segment is longer than ${MAX_PATH_PARAMETER_LENGTH} characters.`]
      : error.code === 'FST_ERR_BAD_URL'
        ? [400, 'The path holds a malformed percent escape.']
        : [error.statusCode ?? 500, 'The request could not be routed.'];
  void reply.code(status).type(PROBLEM_CONTENT_TYPE).send(problemFor(status, detail));
}

/**
 * The Fastify adapter of every service: its options, the framework's own refusals as problem+json, and bodies read
 * in their declared Content-Encoding.
 */
export function createHttpAdapter(options: FastifyServerOptions = {}): FastifyAdapter {
  const adapter = new FastifyAdapter({
    // `__proto__` and `constructor.prototype` keys are dropped, not refused: unknown fields are ignored anyway,
    // and dropping them is what keeps them from reaching an object's prototype.
    onProtoPoisoning: 'remove',
    onConstructorPoisoning: 'remove',
    ...options,
    // As a router option: Fastify 5 warns (FSTDEP022) at each boot for it at the top level.
    routerOptions: { ...options.routerOptions, maxParamLength: MAX_PATH_PARAMETER_LENGTH },
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
  });
  adapter.getInstance().server.on('connect', answerConnect);
  decodeContentEncodings(adapter.getInstance());
  return adapter;
}
