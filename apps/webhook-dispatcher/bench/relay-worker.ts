/**
 * The Kafka rows' OutboxRelay, in a worker thread of its own: in production it runs in the service that writes the
 * events, not in an event loop committing 500 transactions a second for the bench (the producers stand for many
 * api requests, not for one process). Starts with the options it is given, posts `started`; on `stop`, stops and
 * posts `stopped`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { OutboxRelay, type OutboxRelayOptions } from '@storage/messaging';

const relay = new OutboxRelay(workerData as OutboxRelayOptions);
parentPort!.on('message', (message: string) => {
  if (message === 'stop') void relay.stop().then(() => parentPort!.postMessage('stopped'));
});
void relay.start().then(() => parentPort!.postMessage('started'));
