import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { eventually } from '@storage/testing';
import { cli } from './system';

export interface Received {
  headers: Record<string, string>;
  body: string;
}

/** The integrator's local receiver: answers 200 and keeps what it got. */
export async function localReceiver(): Promise<{ server: Server; url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ headers: request.headers as Record<string, string>, body });
      response.writeHead(200).end('thanks');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`, received };
}

export interface Listener {
  process: ChildProcessWithoutNullStreams;
  output: () => string;
  exited: Promise<number | null>;
}

/** `npm run cli -- webhooks listen` with these arguments. */
export function startListen(env: NodeJS.ProcessEnv, ...args: string[]): Listener {
  // A process group of its own, as a terminal gives the command it runs: signals go to the router and the command.
  const child = spawn(process.execPath, [cli, 'webhooks', 'listen', ...args], { env, detached: true });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // 'close', not 'exit': the output is whole only once the streams are closed.
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return { process: child, output: () => output, exited };
}

/** The session and its signing secret, once the listener has printed them. */
export async function readyOf(listener: Listener): Promise<{ secret: string; session: string }> {
  let ready: { secret: string; session: string } | undefined;
  await eventually(
    () => {
      const match = /Session (\S+); its signing secret is (whsec_\S+)/.exec(listener.output());
      expect(match).not.toBeNull();
      ready = { session: match![1], secret: match![2] };
    },
    { timeoutMs: 60_000 },
  );
  return ready!;
}

/** The event verified as a production receiver verifies it, with the secret `listen` printed. */
export function verified(secret: string, delivery: Received): { data: Record<string, unknown>[]; test: boolean } {
  return new Webhook(secret).verify(delivery.body, {
    'webhook-id': delivery.headers['hook-id'],
    'webhook-timestamp': delivery.headers['hook-timestamp'],
    'webhook-signature': delivery.headers['hook-signature'],
  }) as { data: Record<string, unknown>[]; test: boolean };
}
