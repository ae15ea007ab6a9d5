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
  /** The client whose next Produce answer is lost (any client: ''), or null when none is to be. */
  private armedFor: string | null = null;
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

  /** The next Produce answer to `clientId` (kafkajs' client id; any client when not given) is lost, and the broker stays out of reach until `restore`. */
  cutNextProduceAnswer(clientId = ''): void {
    this.armedFor = clientId;
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
    let lostAnswer: number | null = null;
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
      frames((bytes, request) => {
        // A request: API key, version, correlation id, then the client id (a 2-byte length and its bytes).
        const clientId = request.toString('utf8', 10, 10 + request.readInt16BE(8));
        if (this.armedFor !== null && request.readInt16BE(0) === PRODUCE && (this.armedFor === '' || this.armedFor === clientId)) {
          this.armedFor = null;
          lostAnswer = request.readInt32BE(4);
        }
        broker.write(bytes);
      }),
    );
    broker.on(
      'data',
      frames((bytes, answer) => {
        // An answer starts with its request's correlation id.
        if (answer.readInt32BE(0) === lostAnswer) {
          this.down = true;
          cut();
          return;
        }
        client.write(bytes);
      }),
    );
  }
}

/** Splits a stream into whole size-prefixed frames, each given whole (`bytes`) and without its size (`body`), in order. */
function frames(onFrame: (bytes: Buffer, body: Buffer) => void): (chunk: Buffer) => void {
  let pending = Buffer.alloc(0);
  return (chunk) => {
    pending = Buffer.concat([pending, chunk]);
    while (pending.length >= 4 && pending.length >= 4 + pending.readInt32BE(0)) {
      const size = pending.readInt32BE(0);
      onFrame(pending.subarray(0, 4 + size), pending.subarray(4, 4 + size));
      pending = pending.subarray(4 + size);
    }
  };
}
