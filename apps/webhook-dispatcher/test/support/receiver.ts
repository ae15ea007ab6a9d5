import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generate } from 'selfsigned';

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

/** A self-signed certificate for 127.0.0.1 and hooks.test, made in JavaScript (`selfsigned`): no openssl needed. */
export async function makeCertificate(): Promise<TestCertificate> {
  const dir = mkdtempSync(path.join(tmpdir(), 'webhook-cert-'));
  const certFile = path.join(dir, 'cert.pem');
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec',
    notAfterDate: new Date(Date.now() + 2 * 86_400_000),
    extensions: [
      {
        name: 'subjectAltName',
        altNames: [
          { type: 7, ip: '127.0.0.1' },
          { type: 2, value: 'hooks.test' },
        ],
      },
    ],
  });
  writeFileSync(certFile, pems.cert);
  return { key: pems.private, cert: pems.cert, certFile, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
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
