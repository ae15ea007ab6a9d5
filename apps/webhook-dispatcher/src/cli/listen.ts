import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { frameText, RESUME_HEADER, type AnswerMessage, type DeliveryMessage, type ReadyMessage } from '../listen/listen-protocol';

export interface ListenOptions {
  api: string;
  apiKey: string;
  portfolio: string;
  forwardTo: string;
  /** Every event type when absent. */
  events?: string[];
  /** Where the session to resume is remembered (a restart within the grace period picks it up). */
  stateDir?: string;
}

/** A refusal of the api or the stream, as the user should read it (problem+json's detail). */
export class ListenRefused extends Error {}

const FORWARD_TIMEOUT_MS = 10_000;
const RESPONSE_BODY_LIMIT = 20 * 1_024;
const MAX_RECONNECT_DELAY_MS = 10_000;

/**
 * `webhooks listen`: asks the api for a grant, holds the session's stream at the dispatcher, and POSTs each delivery,
 * signed as sent, to `forwardTo`, answering the dispatcher with the local receiver's status. Reconnects after a drop
 * (the same session: what was emitted meanwhile waited), and a restart within the session's grace resumes it too;
 * stopping it (Ctrl-C) ends the session.
 * Resolves when `signal` aborts; rejects on a refusal (bad key, read-only key, unknown event type, session refused).
 */
export async function listen(options: ListenOptions, print: (line: string) => void, signal: AbortSignal): Promise<void> {
  const state = new SessionState(options);
  let failures = 0;
  while (!signal.aborted) {
    const grant = await requestGrant(options).catch((error: unknown) => {
      // An api that does not answer (restarting, say) is waited for; only its refusal ends the command.
      if (error instanceof ListenRefused) throw error;
      print(`The api at ${options.api} is not reachable: ${causeOf(error)}`);
      return undefined;
    });
    const outcome = grant ? await holdStream(grant, await state.read(), options, print, signal, state) : 'dropped-before-ready';
    if (outcome === 'gone') {
      await state.forget();
      continue;
    }
    if (signal.aborted) {
      // Stopped on purpose: the dispatcher ended the session, so the next listen opens a new one.
      await state.forget();
      print('Session ended.');
      return;
    }
    failures = outcome === 'dropped-after-ready' ? 1 : failures + 1;
    const delay = Math.min(MAX_RECONNECT_DELAY_MS, 500 * 2 ** failures);
    print(`Reconnecting in ${(delay / 1_000).toFixed(1)} s (the session's events wait meanwhile)`);
    await sleep(delay, signal);
  }
}

interface Grant {
  streamUrl: string;
  token: string;
}

async function requestGrant(options: ListenOptions): Promise<Grant> {
  const response = await fetch(`${options.api.replace(/\/+$/, '')}/api/v1/webhooks/listen`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': options.apiKey },
    body: JSON.stringify({ portfolio: options.portfolio, ...(options.events ? { eventTypes: options.events } : {}) }),
  });
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (response.status !== 200) throw new ListenRefused(`the api refused the session (${response.status}): ${problemText(body)}`);
  return { streamUrl: String(body.streamUrl), token: String(body.token) };
}

function problemText(body: Record<string, unknown>): string {
  const errors = Array.isArray(body.errors) ? body.errors.map((e: { field?: string; message?: string }) => `${e.field ?? ''}: ${e.message ?? ''}`) : [];
  const detail = typeof body.detail === 'string' ? body.detail : typeof body.title === 'string' ? body.title : 'no detail';
  return [detail, ...errors].join('; ');
}

type StreamOutcome = 'gone' | 'dropped-before-ready' | 'dropped-after-ready';

function holdStream(
  grant: Grant,
  resume: string | undefined,
  options: ListenOptions,
  print: (line: string) => void,
  signal: AbortSignal,
  state: SessionState,
): Promise<StreamOutcome> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { authorization: `Bearer ${grant.token}`, ...(resume ? { [RESUME_HEADER]: resume } : {}) };
    const socket = new WebSocket(grant.streamUrl, { headers });
    let ready = false;
    const onAbort = () => socket.close(1000, 'the listener stopped');
    signal.addEventListener('abort', onAbort, { once: true });
    socket.on('unexpected-response', (_request, response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => {
        socket.terminate();
        if (response.statusCode === 404 && resume) return resolve('gone');
        const body = safeJson(text);
        if (response.statusCode === 503) {
          print(`The dispatcher could not open the session now: ${problemText(body)}`);
          return resolve('dropped-before-ready');
        }
        reject(new ListenRefused(`the dispatcher refused the stream (${response.statusCode}): ${problemText(body)}`));
      });
    });
    socket.on('message', (data) => {
      const message = safeJson(frameText(data)) as unknown as ReadyMessage | DeliveryMessage;
      if (message.type === 'ready') {
        ready = true;
        void state.remember(message.sessionId);
        print(`Ready! Forwarding ${message.eventTypes.join(', ')} of portfolio ${options.portfolio} to ${options.forwardTo}`);
        print(`Session ${message.sessionId}; its signing secret is ${message.secret}`);
      } else if (message.type === 'delivery') {
        void forward(message, options.forwardTo).then((answer) => {
          print(deliveryLine(message, answer));
          if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(answer.message));
        });
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', (code, reason) => {
      signal.removeEventListener('abort', onAbort);
      if (!signal.aborted) print(`Disconnected (${reason.toString() || `code ${code}`})`);
      resolve(ready ? 'dropped-after-ready' : 'dropped-before-ready');
    });
  });
}

async function forward(delivery: DeliveryMessage, url: string): Promise<{ message: AnswerMessage; ms: number }> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...delivery.headers },
      body: delivery.body,
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    });
    const body = (await response.text()).slice(0, RESPONSE_BODY_LIMIT);
    return { message: { type: 'answer', id: delivery.id, status: response.status, body }, ms: ms() };
  } catch (error) {
    return { message: { type: 'answer', id: delivery.id, error: `${url} did not answer: ${causeOf(error)}` }, ms: ms() };
  }
}

/** What fetch's error says went wrong (its cause: the refused connection, the timeout). */
function causeOf(error: unknown): string {
  return error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
}

function deliveryLine(delivery: DeliveryMessage, answer: { message: AnswerMessage; ms: number }): string {
  const outcome = 'status' in answer.message ? String(answer.message.status) : answer.message.error;
  return `${new Date().toISOString()}  ${delivery.eventType.padEnd(25)} ${delivery.id}  -> ${outcome} (${answer.ms} ms)`;
}

function safeJson(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/** The session id last opened for this api, key, portfolio, events and target: a restart resumes it. */
class SessionState {
  private readonly file: string;

  constructor(options: ListenOptions) {
    const identity = [options.api, options.apiKey, options.portfolio, (options.events ?? []).join(','), options.forwardTo].join('\n');
    const name = createHash('sha256').update(identity).digest('hex').slice(0, 24);
    this.file = path.join(options.stateDir ?? path.join(tmpdir(), 'storage-rental-listen'), `${name}.json`);
  }

  async read(): Promise<string | undefined> {
    const text = await readFile(this.file, 'utf8').catch(() => undefined);
    const id = text === undefined ? undefined : safeJson(text).sessionId;
    return typeof id === 'string' ? id : undefined;
  }

  async remember(sessionId: string): Promise<void> {
    await mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
    await writeFile(this.file, JSON.stringify({ sessionId }), { mode: 0o600 });
  }

  async forget(): Promise<void> {
    await rm(this.file, { force: true });
  }
}
