/**
 * The bench's hanging receivers (`hanging.ts`), in a worker thread of their own so that their TLS handshakes (one per
 * attempt, as the dispatcher drops a connection whose request timed out) do not delay the producers' commits.
 * Posts each receiver's port, and each request received and each of their connections closed.
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';

const { key, cert, count } = workerData as { key: string; cert: string; count: number };
const sockets = new Set<Socket>();

function hangingServer(): Server {
  const server = createServer({ key, cert }, (req) => {
    parentPort!.postMessage({ request: true });
    req.socket.once('close', () => parentPort!.postMessage({ closed: true }));
    req.resume();
  });
  server.on('secureConnection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  return server;
}

const servers = Array.from({ length: count }, hangingServer);
void Promise.all(
  servers.map((server) => new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)))),
).then((ports) => parentPort!.postMessage({ ports }));

// Asked to close: every connection held is dropped (the dispatcher's attempts under way then fail at once).
parentPort!.on('message', () => {
  for (const socket of sockets) socket.destroy();
  void Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))).then(() => parentPort!.postMessage({ closedAll: true }));
});
