import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { LoggerModule } from 'nestjs-pino';
import type { DynamicModule } from '@nestjs/common';

export interface LoggingOptions {
  service: string;
  version: string;
  level: string;
}

/** The caller's `x-request-id` when it is sane, else a fresh one; used by Fastify and the logs alike. */
export function requestId(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && /^[\w.:-]{1,128}$/.test(given) ? given : randomUUID();
}

/** Keys, secrets and signatures never reach a log line. */
export const REDACTED_PATHS = [
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["hook-signature"]',
  'res.headers["set-cookie"]',
  '*.secret',
  '*.apiKey',
  '*.password',
  '*.signature',
  '*.token',
];

/**
 * Credentials carried in a URL never reach a log line: a `token` query value (the portal login link) and the path
 * segment after `/leases/sign/` (the api's lease signing link, whose token is the whole credential).
 */
export const redactUrl = (url: string): string => url.replace(/([?&]token=)[^&#]*/gi, '$1[redacted]').replace(/(\/leases\/sign\/)[^/?#]+/gi, '$1[redacted]');

/** Structured JSON logs: service and version on every line, a request id per request, health probes silent. */
export function loggingModule(options: LoggingOptions): DynamicModule {
  return LoggerModule.forRoot({
    pinoHttp: {
      level: options.level,
      base: { service: options.service, version: options.version },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      genReqId: requestId,
      autoLogging: {
        ignore: (req: IncomingMessage) => ((req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '').startsWith('/health'),
      },
      serializers: {
        req: (req: { id: unknown; method: string; url: string }) => ({ id: req.id, method: req.method, url: redactUrl(req.url) }),
      },
    },
  });
}
