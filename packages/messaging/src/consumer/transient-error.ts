/**
 * Whether an error is an infrastructure outage (database or broker away, a connection dropped, a transaction
 * that lost a serialization race) that passes if the same work is tried again later, as opposed to a message
 * that can never be handled. Consumers wait out the first kind instead of dead-lettering it; the Kafka boot
 * waits out a broker that is still settling.
 */
export function isTransient(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > MAX_DEPTH) return false;
  if (isTransientItself(error)) return true;
  // What it wraps: an AggregateError (a connect to several addresses, kafkajs' topic errors) is transient when
  // every member is; `cause` (kafkajs' retries exceeded, an application's wrapper), TypeORM's `driverError`.
  const { cause, driverError, errors } = error as { cause?: unknown; driverError?: unknown; errors?: unknown };
  if (Array.isArray(errors) && errors.length > 0) return errors.every((member) => isTransient(member, depth + 1));
  return isTransient(cause, depth + 1) || isTransient(driverError, depth + 1);
}

/** Guards against a cycle of causes. */
const MAX_DEPTH = 8;

/** SQLSTATEs of an outage or a lost race (PostgreSQL's errcodes appendix); class 08 is matched as a whole. */
const TRANSIENT_SQLSTATES = new Set([
  '57P01', // admin_shutdown: the server is stopping, or pg_terminate_backend
  '57P02', // crash_shutdown: another backend crashed
  '57P03', // cannot_connect_now: the server is starting or recovering
  '53300', // too_many_connections
  '40001', // serialization_failure
  '40P01', // deadlock_detected
]);
const CONNECTION_EXCEPTION = /^08[0-9A-Z]{3}$/;

/** Socket errors of a peer that is down, restarting or unreachable for now. */
const TRANSIENT_SYSTEM_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/** node-postgres reports a lost or unobtainable connection with these messages and no code. */
const PG_CONNECTION_MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'timeout exceeded when trying to connect',
  'Query read timeout',
];

/** kafkajs errors of a broker that is away or not settled yet, whatever their `retriable` flag says. */
const TRANSIENT_KAFKAJS_ERRORS = new Set([
  'KafkaJSConnectionError',
  'KafkaJSConnectionClosedError',
  'KafkaJSRequestTimeoutError',
  'KafkaJSNoBrokerAvailableError',
  'KafkaJSBrokerNotFound',
  'KafkaJSGroupCoordinatorNotFound',
  'KafkaJSTimeout',
  'KafkaJSLockTimeout',
]);

function isTransientItself(error: object): boolean {
  const { code, name, message, retriable } = error as { code?: unknown; name?: unknown; message?: unknown; retriable?: unknown };
  if (typeof code === 'string' && (TRANSIENT_SQLSTATES.has(code) || CONNECTION_EXCEPTION.test(code) || TRANSIENT_SYSTEM_CODES.has(code))) return true;
  if (typeof name === 'string' && name.startsWith('KafkaJS') && (retriable === true || TRANSIENT_KAFKAJS_ERRORS.has(name))) return true;
  return typeof message === 'string' && PG_CONNECTION_MESSAGES.some((text) => message.startsWith(text));
}
