import path from 'node:path';
import { Worker } from 'node:worker_threads';

/**
 * HTTPS receivers that accept the connection and the request and never answer: each attempt ends at the dispatcher's
 * delivery timeout. Each listens on a port of its own, so each is an origin of its own, as different endpoints'
 * hosts are (the delivery client pools its connections per origin). They run in a worker thread,
 * `hanging-worker.ts`.
 */
export class HangingReceivers {
  /** Requests received, and the most held unanswered at once (a full lane holds its endpoint's `maxInFlight`). */
  requests = 0;
  peakOpen = 0;
  private open = 0;
  private readonly worker: Worker;

  constructor(tls: { key: string; cert: string }, count: number) {
    this.worker = new Worker(path.join(__dirname, 'hanging-worker.js'), { workerData: { key: tls.key, cert: tls.cert, count } });
    this.worker.on('message', (message: { request?: boolean; closed?: boolean }) => {
      if (message.request) {
        this.requests += 1;
        this.open += 1;
        this.peakOpen = Math.max(this.peakOpen, this.open);
      }
      if (message.closed) this.open -= 1;
    });
  }

  /** The receivers' origins, once they listen. */
  origins(): Promise<string[]> {
    return this.answer<{ ports?: number[] }, string[]>((message) => message.ports?.map((port) => `https://127.0.0.1:${port}`));
  }

  /** Drops every connection held (the dispatcher's attempts under way then fail at once) and stops listening. */
  async close(): Promise<void> {
    const closed = this.answer<{ closedAll?: boolean }, boolean>((message) => message.closedAll);
    this.worker.postMessage('close');
    await closed;
    await this.worker.terminate();
  }

  /** The first message of the worker that `pick` finds something in. */
  private answer<M, T>(pick: (message: M) => T | undefined): Promise<T> {
    return new Promise((resolve, reject) => {
      this.worker.once('error', reject);
      const onMessage = (message: M) => {
        const value = pick(message);
        if (value === undefined) return;
        this.worker.off('message', onMessage);
        resolve(value);
      };
      this.worker.on('message', onMessage);
    });
  }
}
