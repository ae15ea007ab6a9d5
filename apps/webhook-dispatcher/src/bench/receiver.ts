import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

/** A self-signed certificate for 127.0.0.1; the dispatcher trusts it through NODE_EXTRA_CA_CERTS. */
export function certificate(dir: string): { key: string; cert: string; certFile: string } {
  const [keyFile, certFile] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')];
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1',
    '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', keyFile, '-out', certFile], { stdio: 'ignore' });
  return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8'), certFile };
}

/**
 * The HTTPS receiver: answers 204 and reports every delivery's event id, endpoint (the URL path) and arrival
 * time (performance.now(), the clock the producer stamps commits with).
 */
export class Receiver {
  private readonly server: Server;
  private seen = new Set<string>();
  duplicates = 0;

  constructor(tls: { key: string; cert: string }, onDelivery: (eventId: string, at: number) => void) {
    this.server = createServer({ key: tls.key, cert: tls.cert, keepAliveTimeout: 60_000 }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const at = performance.now();
        const eventId = (JSON.parse(Buffer.concat(chunks).toString()) as { data: { eventId: string }[] }).data[0].eventId;
        const delivery = `${req.url} ${eventId}`;
        // A retried or redelivered message arrives again; at-least-once allows it, the table counts it.
        if (this.seen.has(delivery)) this.duplicates += 1;
        else {
          this.seen.add(delivery);
          onDelivery(eventId, at);
        }
        res.statusCode = 204;
        res.end();
      });
    });
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `https://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): void {
    this.server.closeAllConnections();
    this.server.close();
  }
}
