import { createServer, type Server } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';

/**
 * HTTPS receivers that accept the connection and the request and never answer: each attempt ends at the dispatcher's
 * delivery timeout. Each listens on a port of its own, so each is an origin of its own, as different endpoints'
 * hosts are (the delivery client pools its connections per origin). They run in the bench's main thread: after the
 * handshake they have nothing to do.
 */
export class HangingReceivers {
  /** Requests received, and the most held unanswered at once (a full lane holds its endpoint's `maxInFlight`). */
  requests = 0;
  peakOpen = 0;
  private open = 0;
  private readonly servers: Server[] = [];
  private readonly sockets = new Set<Socket>();

  constructor(private readonly tls: { key: string; cert: string }) {}

  /** Starts `count` receivers and answers their origins. */
  async listen(count: number): Promise<string[]> {
    return Promise.all(Array.from({ length: count }, () => this.listenOne()));
  }

  /** Drops every connection held (the dispatcher's attempts under way then fail at once) and stops listening. */
  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await Promise.all(this.servers.map((server) => new Promise((resolve) => server.close(resolve))));
  }

  private listenOne(): Promise<string> {
    const server = createServer({ key: this.tls.key, cert: this.tls.cert }, (req) => {
      this.requests += 1;
      this.open += 1;
      this.peakOpen = Math.max(this.peakOpen, this.open);
      req.socket.once('close', () => (this.open -= 1));
      req.resume();
    });
    server.on('secureConnection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
    this.servers.push(server);
    return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`https://127.0.0.1:${(server.address() as AddressInfo).port}`)));
  }
}
