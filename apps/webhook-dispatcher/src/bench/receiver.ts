import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

/** A self-signed certificate for 127.0.0.1; the dispatcher trusts it through NODE_EXTRA_CA_CERTS. */
export function certificate(dir: string): { key: string; cert: string; certFile: string } {
  const [keyFile, certFile] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')];
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1',
    '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', keyFile, '-out', certFile], { stdio: 'ignore' });
  return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8'), certFile };
}

/**
 * The HTTPS receiver (a worker thread, `receiver-worker.ts`): reports every delivery's event id and arrival time
 * (`wallClock`, the clock the producer stamps commits with) once per endpoint, and counts the ones received again.
 */
export class Receiver {
  private readonly worker: Worker;
  private readonly seen = new Set<string>();
  duplicates = 0;

  constructor(tls: { key: string; cert: string }, onDelivery: (eventId: string, at: number) => void) {
    this.worker = new Worker(path.join(__dirname, 'receiver-worker.js'), { workerData: { key: tls.key, cert: tls.cert } });
    this.worker.on('message', (message: { path?: string; eventId?: string; at?: number }) => {
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
