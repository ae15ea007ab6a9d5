import type { LookupAddress } from 'node:dns';
import { Agent } from 'undici';
import { bareHost, checkTargetUrlSyntax, parseIp, systemResolver, TargetUrlRefused, type AddressPolicy, type HostResolver } from '@storage/webhooks';

export const DELIVERY_TIMEOUT_MS = 15_000;
export const RESPONSE_BODY_LIMIT_BYTES = 20 * 1_024;

export interface DeliveryRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export type DeliveryResponse =
  | { kind: 'response'; statusCode: number; body: string; retryAfter: string | undefined; latencyMs: number }
  | { kind: 'error'; error: string; timedOut: boolean; latencyMs: number };

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
export class DeliveryClient {
  private readonly agent: Agent;
  private readonly timeoutMs: number;

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
      connect: { timeout: this.timeoutMs, lookup, ...(options.testCa ? { ca: options.testCa } : {}) },
    });
  }

  async send(request: DeliveryRequest): Promise<DeliveryResponse> {
    const started = performance.now();
    const latency = () => Math.round(performance.now() - started);
    let url: URL;
    try {
      // The rules are checked again at delivery: the allowlist may have changed since subscription.
      url = checkTargetUrlSyntax(request.url, this.options.policy);
    } catch (error) {
      return { kind: 'error', error: (error as Error).message, timedOut: false, latencyMs: latency() };
    }
    const signal = AbortSignal.timeout(this.timeoutMs);
    try {
      const response = await this.agent.request({
        origin: url.origin,
        path: url.pathname,
        method: 'POST',
        headers: { ...request.headers, 'content-type': 'application/json', 'user-agent': 'storage-webhooks/1' },
        body: request.body,
        signal,
      });
      const body = await readCapped(response.body, RESPONSE_BODY_LIMIT_BYTES);
      const retryAfter = response.headers['retry-after'];
      return {
        kind: 'response',
        statusCode: response.statusCode,
        body,
        retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
        latencyMs: latency(),
      };
    } catch (error) {
      const timedOut = signal.aborted || isTimeout(error);
      const reason = timedOut ? `no answer within ${this.timeoutMs} ms` : describe(error);
      return { kind: 'error', error: reason, timedOut, latencyMs: latency() };
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
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

async function readCapped(body: AsyncIterable<Buffer> & { destroy: () => void }, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= limit) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
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
