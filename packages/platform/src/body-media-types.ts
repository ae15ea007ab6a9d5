import { RouteConfig } from '@nestjs/platform-fastify';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';
import { PROBLEM_CONTENT_TYPE, problemFor } from './problem-details';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set by `@AcceptsFormBody()`. */
    acceptsFormBody?: boolean;
  }
}

/** A route that takes a browser's form post (`application/x-www-form-urlencoded`) besides JSON. */
export const AcceptsFormBody = (): MethodDecorator => RouteConfig({ acceptsFormBody: true });

const BODILESS_METHODS = new Set(['GET', 'HEAD']);
const UTF_8 = new Set(['utf-8', 'utf8']);

/** Whether the request carries a body to parse (GET and HEAD bodies are never read). */
export const hasBody = (request: FastifyRequest): boolean =>
  !BODILESS_METHODS.has(request.method) && (request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0);

/** The media type and charset of a Content-Type header, lower-cased, the charset unquoted. */
function contentType(header: string | undefined): { mediaType: string; charset: string | undefined } {
  const [mediaType, ...parameters] = (header ?? '').split(';').map((part) => part.trim().toLowerCase());
  const charset = parameters.find((parameter) => parameter.startsWith('charset='))?.slice('charset='.length);
  return { mediaType, charset: charset?.replace(/^"(.*)"$/, '$1') };
}

/** Why a body of this content type is refused on this route, or null when it is taken. */
function refusal(request: FastifyRequest): string | null {
  const { mediaType, charset } = contentType(request.headers['content-type']);
  // `utf8` is not the registered name, but what many clients send for it.
  if (mediaType === 'application/json') return charset === undefined || UTF_8.has(charset) ? null : 'JSON bodies must be UTF-8 (charset=utf-8, or none).';
  if (mediaType === 'application/x-www-form-urlencoded' && request.routeOptions.config.acceptsFormBody === true) return null;
  return 'The body must be JSON (Content-Type: application/json).';
}

/**
 * Bodies are JSON in UTF-8 (RFC 8259), and forms only where a route says `@AcceptsFormBody()`: anything else
 * (text/plain, a form on a JSON route, another charset) is answered 415 before it is parsed, not validated as if
 * it were the JSON the route expects.
 */
export function acceptJsonBodies(app: NestFastifyApplication): void {
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRequest', async (request, reply) => {
      if (request.is404 || !hasBody(request)) return;
      const refused = refusal(request);
      if (refused !== null) await reply.code(415).type(PROBLEM_CONTENT_TYPE).send(problemFor(415, refused));
    });
}
