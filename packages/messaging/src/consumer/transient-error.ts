import { passingFailureOf, wraps } from '@storage/persistence';

/**
 * Whether an error is an infrastructure outage (database or broker away, a connection dropped, a transaction
 * that lost a serialization race) that passes if the same work is tried again later, as opposed to a message
 * that can never be handled. Consumers wait out the first kind instead of dead-lettering it; the Kafka boot
 * waits out a broker that is still settling.
 */
export function isTransient(error: unknown): boolean {
  return passingFailureOf(error) !== undefined || wraps(error, isKafkaOutage);
}

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

function isKafkaOutage(error: object): boolean {
  const { name, retriable } = error as { name?: unknown; retriable?: unknown };
  return typeof name === 'string' && name.startsWith('KafkaJS') && (retriable === true || TRANSIENT_KAFKAJS_ERRORS.has(name));
}
