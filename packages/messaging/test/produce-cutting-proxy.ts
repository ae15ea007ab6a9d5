import { createServer, connect, type Server, type Socket } from 'node:net';

/** Kafka's API key of Produce requests. */
const PRODUCE = 0;

/**
 * A TCP proxy in front of a broker that can lose a Produce answer the way a broker going down does: the request
 * reaches the broker (which appends the batch), its answer never reaches the client, and the connection and every
 * new one fail until `restore`. It reads the Kafka framing (a 4-byte size, then the request's API key, version and
 * correlation id; the answer's correlation id) only to know which answer is a Produce's.
 */
export class ProduceCuttingProxy {
  private armed = false;
  private down = false;
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async listen(port: number, target: () => number): Promise<ProduceCuttingProxy> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    const proxy = new ProduceCuttingProxy(server, port);
    server.on('connection', (client) => proxy.relay(client, target()));
    return proxy;
  }

  /** The next Produce answer is lost, and the broker stays out of reach until `restore`. */
  cutNextProduceAnswer(): void {
    this.armed = true;
  }

  restore(): void {
    this.down = false;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private relay(client: Socket, brokerPort: number): void {
    if (this.down) {
      client.destroy();
      return;
    }
    const broker = connect(brokerPort, '127.0.0.1');
    const apiKeys = new Map<number, number>();
    const cut = (): void => {
      client.destroy();
      broker.destroy();
    };
    for (const socket of [client, broker]) {
      this.sockets.add(socket);
      socket.on('close', () => {
        this.sockets.delete(socket);
        cut();
      });
      socket.on('error', cut);
    }
    client.on(
      'data',
      frames(
        (frame) => apiKeys.set(frame.readInt32BE(4), frame.readInt16BE(0)),
        (bytes) => broker.write(bytes),
      ),
    );
    broker.on(
      'data',
      frames(
        () => undefined,
        (bytes, frame) => {
          if (this.armed && frame !== undefined && apiKeys.get(frame.readInt32BE(0)) === PRODUCE) {
            this.armed = false;
            this.down = true;
            cut();
            return;
          }
          client.write(bytes);
        },
      ),
    );
  }
}

/**
 * Splits a stream into whole size-prefixed frames: `onFrame` sees each frame's body, `forward` gets each whole
 * frame's bytes (with the body, for its caller to decide on) in order.
 */
function frames(onFrame: (body: Buffer) => void, forward: (bytes: Buffer, body?: Buffer) => void): (chunk: Buffer) => void {
  let pending = Buffer.alloc(0);
  return (chunk) => {
    pending = Buffer.concat([pending, chunk]);
    while (pending.length >= 4 && pending.length >= 4 + pending.readInt32BE(0)) {
      const size = pending.readInt32BE(0);
      const body = pending.subarray(4, 4 + size);
      onFrame(body);
      forward(pending.subarray(0, 4 + size), body);
      pending = pending.subarray(4 + size);
    }
  };
}
