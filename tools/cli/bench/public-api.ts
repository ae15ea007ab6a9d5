import { Agent, request } from 'node:http';

/** The api of a running system as an integrator reaches it: JSON over HTTP with an API key, connections kept alive. */
export class PublicApi {
  // Enough sockets that 500 requests/s open loop are not queued behind each other in the bench.
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 128 });

  constructor(
    private readonly port: number,
    private readonly apiKey: string,
  ) {}

  /** The answer's status and parsed body; resolves when its last byte is read. */
  call<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: this.port,
          method,
          path,
          agent: this.agent,
          headers: { 'x-api-key': this.apiKey, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString();
            resolve({ status: res.statusCode ?? 0, body: (text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : text) as T });
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** The body of a 200 answer; any other status is an error naming the call. */
  async ok<T>(method: string, path: string, body?: unknown): Promise<T> {
    const answer = await this.call<T>(method, path, body);
    if (answer.status !== 200) throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    return answer.body;
  }

  close(): void {
    this.agent.destroy();
  }
}
