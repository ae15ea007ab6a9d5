import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

/** A self-signed certificate for 127.0.0.1, made in JavaScript; the dispatcher trusts it through NODE_EXTRA_CA_CERTS. */
export async function certificate(dir: string): Promise<{ key: string; cert: string; certFile: string }> {
  const certFile = path.join(dir, 'cert.pem');
  // Loaded here: the tests that import this package need no certificate.
  const { generate } = await import('selfsigned');
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec',
    notAfterDate: new Date(Date.now() + 1 * 86_400_000),
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  });
  writeFileSync(certFile, pems.cert);
  return { key: pems.private, cert: pems.cert, certFile };
}

/** A delivery's event: the first item of its body's `data`, as the spec's payload of its type. */
export type DeliveredEvent = { eventId: string } & Record<string, unknown>;

/**
 * The HTTPS receiver (a worker thread, `https-receiver-worker.ts`): reports every delivery's event and arrival time
 * (`wallClock`, the clock the bench stamps commits and answers with) once per endpoint, and counts the ones received again.
 */
export class Receiver {
  private readonly worker: Worker;
  private readonly seen = new Set<string>();
  duplicates = 0;
  /** Deliveries received, each once. */
  get deliveries(): number {
    return this.seen.size;
  }
  /** TLS connections accepted: with keep-alive, a few per rate step rather than one per delivery. */
  connections = 0;

  private readonly origin: Promise<string>;

  constructor(tls: { key: string; cert: string }, onDelivery: (event: DeliveredEvent, at: number) => void) {
    this.worker = new Worker(path.join(__dirname, 'https-receiver-worker.js'), { workerData: { key: tls.key, cert: tls.cert } });
    this.origin = new Promise((resolve, reject) => {
      this.worker.once('error', reject);
      const onPort = (message: { port?: number }) => {
        if (message.port === undefined) return;
        this.worker.off('message', onPort);
        resolve(`https://127.0.0.1:${message.port}`);
      };
      this.worker.on('message', onPort);
    });
    this.worker.on('message', (message: { path?: string; event?: DeliveredEvent; at?: number; connection?: boolean }) => {
      if (message.connection) this.connections += 1;
      if (message.event === undefined) return;
      const delivery = `${message.path} ${message.event.eventId}`;
      // A retried or redelivered message arrives again; at-least-once allows it, the table counts it.
      if (this.seen.has(delivery)) this.duplicates += 1;
      else {
        this.seen.add(delivery);
        onDelivery(message.event, message.at!);
      }
    });
  }

  /** The receiver's origin, once it listens (whenever it is asked: the worker says its port once, as it starts). */
  listen(): Promise<string> {
    return this.origin;
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}
