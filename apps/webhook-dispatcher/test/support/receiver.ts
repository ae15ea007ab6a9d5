import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  receivedAt: number;
}

export type Responder = (request: ReceivedRequest, response: ServerResponse) => void;

export interface TestCertificate {
  key: string;
  cert: string;
  /** A PEM file of the certificate, for NODE_EXTRA_CA_CERTS of a spawned dispatcher. */
  certFile: string;
  cleanup: () => void;
}

/** A self-signed certificate for 127.0.0.1 and hooks.test, made with the openssl CLI. */
export function makeCertificate(): TestCertificate {
  const dir = mkdtempSync(path.join(tmpdir(), 'webhook-cert-'));
  const keyFile = path.join(dir, 'key.pem');
  const certFile = path.join(dir, 'cert.pem');
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2',
    '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:hooks.test',
    '-keyout', keyFile, '-out', certFile,
  ], { stdio: 'ignore' });
  return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8'), certFile, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** An HTTPS receiver on 127.0.0.1 that records every request; answers 204 unless told otherwise. */
export class TestReceiver {
  readonly requests: ReceivedRequest[] = [];
  respond: Responder = (_request, response) => {
    response.statusCode = 204;
    response.end();
  };
  private server: Server | undefined;

  constructor(private readonly certificate: TestCertificate) {}

  async start(): Promise<this> {
    this.server = createServer({ key: this.certificate.key, cert: this.certificate.cert, keepAliveTimeout: 60_000 }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const request = { path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), receivedAt: Date.now() };
        this.requests.push(request);
        this.respond(request, res);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get port(): number {
    return (this.server!.address() as AddressInfo).port;
  }

  url(pathname = '/webhook'): string {
    return `https://127.0.0.1:${this.port}${pathname}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** Writes the certificate where a child process can read it. */
export function writeCa(certificate: TestCertificate, file: string): void {
  writeFileSync(file, certificate.cert);
}
