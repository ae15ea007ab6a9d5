import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { LoggerModule } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
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

/**
 * The service whose work is under way, when several run in one process (`npm start`): every line names its own,
 * although nestjs-pino writes the lines logged outside a request with the logger of the first service booted.
 */
const serviceAtWork = new AsyncLocalStorage<string>();

/** Runs `work`, and everything it starts, as `service`'s: the lines it logs name that service. */
export const asService = <T>(service: string, work: () => T): T => serviceAtWork.run(service, work);

/** The service whose work is under way (`asService`), if any. */
export const serviceAtWorkNow = (): string | undefined => serviceAtWork.getStore();

let destination: DestinationStream | undefined;

/**
 * Where the services booted after this call write their log lines (stdout otherwise): the one process running
 * them all (`npm start`) writes them for people in a terminal.
 */
export function setLogDestination(stream: DestinationStream | undefined): void {
  destination = stream;
}

/** Structured JSON logs: service and version on every line, a request id per request, health probes silent. */
export function loggingModule(options: LoggingOptions): DynamicModule {
  const pinoOptions = {
    level: options.level,
    base: { version: options.version },
    mixin: () => ({ service: serviceAtWork.getStore() ?? options.service }),
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    genReqId: requestId,
    autoLogging: {
      ignore: (req: IncomingMessage) => ((req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '').startsWith('/health'),
    },
    serializers: {
      req: (req: { id: unknown; method: string; url: string }) => ({ id: req.id, method: req.method, url: redactUrl(req.url) }),
    },
  };
  return LoggerModule.forRoot({ pinoHttp: destination === undefined ? pinoOptions : [pinoOptions, destination] });
}
