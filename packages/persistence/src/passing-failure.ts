/**
 * A failure that passes if the same work is tried again later: a peer away or unable to serve for now (the database
 * stopping, restarting or unreachable, a connection dropped, a standby taking no writes, a statement cut by the
 * operator's statement_timeout), a transaction that lost a race with another one (a deadlock, a lock waited for longer
 * than lock_timeout), or the database out of disk space or memory (it passes once an operator makes room; the work
 * itself is sound). The api answers all three 503 with Retry-After; consumers wait them out instead of dead-lettering
 * the message.
 */
export type PassingFailure = 'unavailable' | 'collision' | 'exhausted';

/** Which kind wins when an error wraps several: a lost race is retried at once, an outage waited out. */
const PRECEDENCE: readonly PassingFailure[] = ['collision', 'unavailable', 'exhausted'];

/** The passing failure `error` is or wraps (see `wraps`), or undefined when it is of another kind. */
export function passingFailureOf(error: unknown): PassingFailure | undefined {
  return PRECEDENCE.find((kind) => wraps(error, (candidate) => passingFailureItself(candidate) === kind));
}

/**
 * Whether `error` or what it wraps passes `test`: TypeORM's `driverError`, a `cause` (pg-pool's connection timeout,
 * kafkajs' retries exceeded, an application's wrapper), or every member of an AggregateError (a connect to several
 * addresses).
 */
export function wraps(error: unknown, test: (candidate: object) => boolean, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > MAX_DEPTH) return false;
  if (test(error)) return true;
  const { cause, driverError, errors } = error as { cause?: unknown; driverError?: unknown; errors?: unknown };
  if (Array.isArray(errors) && errors.length > 0) return errors.every((member) => wraps(member, test, depth + 1));
  return wraps(cause, test, depth + 1) || wraps(driverError, test, depth + 1);
}

/** Guards against a cycle of causes. */
const MAX_DEPTH = 8;

/** SQLSTATEs of a lost race (PostgreSQL's errcodes appendix). */
const COLLISION_SQLSTATES = new Set([
  '40001', // serialization_failure
  '40P01', // deadlock_detected
  '55P03', // lock_not_available: a lock waited for longer than the operator's lock_timeout
]);

/** SQLSTATEs of a server away or unable to serve for now; class 08 (connection exception) is matched as a whole. */
const UNAVAILABLE_SQLSTATES = new Set([
  '57P01', // admin_shutdown: the server is stopping, or pg_terminate_backend
  '57P02', // crash_shutdown: another backend crashed
  '57P03', // cannot_connect_now: the server is starting or recovering
  '53300', // too_many_connections
  '57014', // query_canceled: the operator's statement_timeout (none is set here), or pg_cancel_backend
  '25006', // read_only_sql_transaction: a standby (a failover under way) or a database its operator set read-only
]);

/**
 * SQLSTATEs of a server out of resources (class 53 but 53300, above, and 53400 configuration_limit_exceeded, a
 * limit that the same work meets again).
 */
const EXHAUSTED_SQLSTATES = new Set([
  '53000', // insufficient_resources
  '53100', // disk_full: a table or the WAL cannot grow
  '53200', // out_of_memory
]);
const CONNECTION_EXCEPTION = /^08[0-9A-Z]{3}$/;

/** Socket errors of a peer that is down, restarting or unreachable for now. */
const SOCKET_OUTAGES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/** node-postgres and pg-pool report a lost or unobtainable connection with these messages and no code. */
const PG_CONNECTION_MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'timeout exceeded when trying to connect',
  'timeout expired',
  'Query read timeout',
];

/**
 * TypeORM releases a query runner whose connection failed; the transaction's next statement then fails with this
 * instead of the connection's error.
 */
const RELEASED_RUNNER = 'QueryRunnerProviderAlreadyReleasedError';

function passingFailureItself(error: object): PassingFailure | undefined {
  const { code, message, name } = error as { code?: unknown; message?: unknown; name?: unknown };
  if (name === RELEASED_RUNNER) return 'unavailable';
  if (typeof code === 'string') {
    if (COLLISION_SQLSTATES.has(code)) return 'collision';
    if (UNAVAILABLE_SQLSTATES.has(code) || CONNECTION_EXCEPTION.test(code) || SOCKET_OUTAGES.has(code)) return 'unavailable';
    if (EXHAUSTED_SQLSTATES.has(code)) return 'exhausted';
  }
  return typeof message === 'string' && PG_CONNECTION_MESSAGES.some((text) => message.startsWith(text)) ? 'unavailable' : undefined;
}
