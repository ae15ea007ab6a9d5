import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { generate } from 'selfsigned';

/** A self-signed certificate for 127.0.0.1, made in JavaScript; the dispatcher trusts it through NODE_EXTRA_CA_CERTS. */
export async function certificate(dir: string): Promise<{ key: string; cert: string; certFile: string }> {
  const certFile = path.join(dir, 'cert.pem');
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec',
    notAfterDate: new Date(Date.now() + 1 * 86_400_000),
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  });
  writeFileSync(certFile, pems.cert);
  return { key: pems.private, cert: pems.cert, certFile };
}

/**
 * The HTTPS receiver (a worker thread, `receiver-worker.ts`): reports every delivery's event id and arrival time
 * (`wallClock`, the clock the producer stamps commits with) once per endpoint, and counts the ones received again.
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

  constructor(tls: { key: string; cert: string }, onDelivery: (eventId: string, at: number) => void) {
    this.worker = new Worker(path.join(__dirname, 'receiver-worker.js'), { workerData: { key: tls.key, cert: tls.cert } });
    this.worker.on('message', (message: { path?: string; eventId?: string; at?: number; connection?: boolean }) => {
      if (message.connection) this.connections += 1;
      if (message.eventId === undefined) return;
      const delivery = `${message.path} ${message.eventId}`;
      // A retried or redelivered message arrives again; at-least-once allows it, the table counts it.
      if (this.seen.has(delivery)) this.duplicates += 1;
      else {
        this.seen.add(delivery);
        onDelivery(message.eventId, message.at!);
      }
    });
  }

  /** The receiver's origin, once it listens. */
  listen(): Promise<string> {
    return new Promise((resolve, reject) => {
      this.worker.once('error', reject);
      const onMessage = (message: { port?: number }) => {
        if (message.port === undefined) return;
        this.worker.off('message', onMessage);
        resolve(`https://127.0.0.1:${message.port}`);
      };
      this.worker.on('message', onMessage);
    });
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}
