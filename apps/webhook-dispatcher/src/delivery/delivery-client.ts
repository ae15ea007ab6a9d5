import type { LookupAddress } from 'node:dns';
import { createSecureContext } from 'node:tls';
import { Agent, type Dispatcher } from 'undici';
import { bareHost, checkTargetUrlSyntax, parseIp, systemResolver, TargetUrlRefused, type AddressPolicy, type HostResolver } from '@storage/webhooks';

export const DELIVERY_TIMEOUT_MS = 15_000;
export const RESPONSE_BODY_LIMIT_BYTES = 20 * 1_024;
/** Endpoint URLs whose check is kept; past it the cache starts over. */
const MAX_CHECKED_URLS = 10_000;

export interface DeliveryRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** Not sent over HTTPS (the body does not name it either); a listener prints it. */
  eventType: string;
}

export type DeliveryResponse =
  | { kind: 'response'; statusCode: number; body: string; retryAfter: string | undefined; latencyMs: number }
  | { kind: 'error'; error: string; timedOut: boolean; latencyMs: number };

/** Sends one attempt: over HTTPS (`DeliveryClient`), or down a listen session's stream. */
export interface WebhookSender {
  send(request: DeliveryRequest): Promise<DeliveryResponse>;
}

export interface DeliveryClientOptions {
  policy: AddressPolicy;
  resolve?: HostResolver;
  timeoutMs?: number;
  /** Connections kept per receiver origin. */
  connectionsPerOrigin?: number;
  /**
   * Tests only: the CA of a test receiver, for in-process tests that cannot set NODE_EXTRA_CA_CERTS
   * before Node starts. Services never set it; they trust the system store plus NODE_EXTRA_CA_CERTS.
   */
  testCa?: string;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * Sends webhooks over a pooled undici agent. The connection's DNS lookup is ours: it resolves the host,
 * refuses the whole answer when any address is not allowed, and hands the vetted address to the socket,
 * so the address checked is the address connected to (no rebinding between check and connect).
 */
export class DeliveryClient implements WebhookSender {
  private readonly agent: Agent;
  private readonly timeoutMs: number;
  /** The outcome of the URL rules per URL: the policy is fixed for the client, so it cannot change. */
  private readonly checked = new Map<string, { origin: string; path: string } | { refused: string }>();

  constructor(private readonly options: DeliveryClientOptions) {
    this.timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
    const resolve = options.resolve ?? systemResolver;
    const lookup = (hostname: string, lookupOptions: { all?: boolean }, callback: LookupCallback): void => {
      vettedAddresses(hostname, resolve, options.policy).then(
        (addresses) => {
          if (lookupOptions.all) callback(null, addresses);
          else callback(null, addresses[0].address, addresses[0].family);
        },
        (error: NodeJS.ErrnoException) => callback(error, []),
      );
    };
    this.agent = new Agent({
      connections: options.connectionsPerOrigin ?? 64,
      keepAliveTimeout: 30_000,
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
      // One TLS context for every connection: built per connection it was a third of a new connection's CPU, and a
      // wave of reconnections (receivers timing out together) held up every other delivery for it.
      connect: { timeout: this.timeoutMs, lookup, secureContext: createSecureContext(options.testCa ? { ca: options.testCa } : {}) },
    });
  }

  async send(request: DeliveryRequest): Promise<DeliveryResponse> {
    const started = performance.now();
    const latency = () => Math.round(performance.now() - started);
    const target = this.target(request.url);
    if ('refused' in target) return { kind: 'error', error: target.refused, timedOut: false, latencyMs: latency() };
    return new Promise((resolve) => {
      const exchange = new Exchange(this.timeoutMs, (response) => resolve({ ...response, latencyMs: latency() }));
      // dispatch rather than request: no body stream nor abort signal per delivery, a handler gathering the answer.
      try {
        this.agent.dispatch(
          {
            origin: target.origin,
            path: target.path,
            method: 'POST',
            headers: { ...request.headers, 'content-type': 'application/json', 'user-agent': 'storage-webhooks/1' },
            body: request.body,
          },
          exchange,
        );
      } catch (error) {
        exchange.fail(error);
      }
    });
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  /**
   * The rules are checked again at delivery, against this client's policy (the allowlist may have changed since
   * subscription); once per URL, not per delivery.
   */
  private target(raw: string): { origin: string; path: string } | { refused: string } {
    let target = this.checked.get(raw);
    if (!target) {
      try {
        const url = checkTargetUrlSyntax(raw, this.options.policy);
        target = { origin: url.origin, path: url.pathname };
      } catch (error) {
        target = { refused: (error as Error).message };
      }
      if (this.checked.size >= MAX_CHECKED_URLS) this.checked.clear();
      this.checked.set(raw, target);
    }
    return target;
  }
}

async function vettedAddresses(hostname: string, resolve: HostResolver, policy: AddressPolicy): Promise<LookupAddress[]> {
  const host = bareHost(new URL(`https://${hostname.includes(':') ? `[${hostname}]` : hostname}`));
  const addresses = parseIp(host) ? [host] : await resolve(host).catch(() => []);
  if (addresses.length === 0) throw Object.assign(new Error(`${host} does not resolve`), { code: 'ENOTFOUND' });
  for (const address of addresses) {
    const refusal = policy.refusal(address);
    if (refusal) throw new TargetUrlRefused(`${host} resolves to ${address}, a ${refusal}`);
  }
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
}

type Answer = DistributiveOmit<DeliveryResponse, 'latencyMs'>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * One delivery's exchange as an undici dispatch handler: the status, `retry-after` and the first
 * RESPONSE_BODY_LIMIT_BYTES of the body (the connection is dropped past them), settled once. One timer bounds the
 * whole exchange (connect, headers, body), so a receiver trickling its answer cannot hold a slot for longer.
 */
class Exchange implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | undefined;
  private readonly timer: NodeJS.Timeout;
  private timedOut = false;
  private settled = false;
  private statusCode = 0;
  private retryAfter: string | undefined;
  private readonly chunks: Buffer[] = [];
  private size = 0;

  constructor(
    private readonly timeoutMs: number,
    private readonly settle: (answer: Answer) => void,
  ) {
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.controller?.abort(new Error('timed out'));
      this.finish({ kind: 'error', error: `no answer within ${timeoutMs} ms`, timedOut: true });
    }, timeoutMs);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.timedOut) controller.abort(new Error('timed out'));
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: Record<string, string | string[] | undefined>): void {
    this.statusCode = statusCode;
    const retryAfter = headers['retry-after'];
    this.retryAfter = Array.isArray(retryAfter) ? retryAfter[0] : retryAfter;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    if (this.size < RESPONSE_BODY_LIMIT_BYTES) return;
    // Answered first: the abort reports an error at once.
    this.answered();
    controller.abort(new Error('response body limit reached'));
  }

  onResponseEnd(): void {
    this.answered();
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.fail(error);
  }

  fail(error: unknown): void {
    const timedOut = this.timedOut || isTimeout(error);
    this.finish({ kind: 'error', error: timedOut ? `no answer within ${this.timeoutMs} ms` : describe(error), timedOut });
  }

  private answered(): void {
    const body = Buffer.concat(this.chunks).subarray(0, RESPONSE_BODY_LIMIT_BYTES).toString('utf8');
    this.finish({ kind: 'response', statusCode: this.statusCode, body, retryAfter: this.retryAfter });
  }

  /** The first outcome counts: an abort after the limit or the timeout reports an error that is not the answer. */
  private finish(answer: Answer): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    this.settle(answer);
  }
}

function isTimeout(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT';
}

/** The innermost cause, which names the real problem (refused address, TLS, connection refused). */
function describe(error: unknown): string {
  let current = error as { message?: string; cause?: unknown } | undefined;
  while (current?.cause && typeof current.cause === 'object') current = current.cause;
  return current?.message ?? String(error);
}
