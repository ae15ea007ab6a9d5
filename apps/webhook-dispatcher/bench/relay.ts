import { once } from 'node:events';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { OutboxRelayOptions } from '@storage/messaging';

/** An OutboxRelay in a worker thread (`relay-worker.ts`), started and stopped from the bench. */
export async function startRelay(options: OutboxRelayOptions): Promise<{ stop: () => Promise<void> }> {
  const worker = new Worker(path.join(__dirname, 'relay-worker.js'), { workerData: options });
  const [started] = (await Promise.race([once(worker, 'message'), once(worker, 'error').then(([error]) => Promise.reject(error as Error))])) as [string];
  if (started !== 'started') throw new Error(`the relay worker answered ${started}`);
  return {
    stop: async () => {
      worker.postMessage('stop');
      await once(worker, 'message');
      await worker.terminate();
    },
  };
}
