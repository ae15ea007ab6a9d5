/**
 * The bench's HTTPS receiver, in a worker thread of its own so that the producers' work does not delay the
 * arrival times. Answers 204 and posts each delivery's endpoint path, event (its body's first `data` item) and arrival time (`wallClock`), and
 * each TLS connection it accepts.
 */
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';
import { wallClock } from './wall-clock';

const { key, cert } = workerData as { key: string; cert: string };
const server = createServer({ key, cert, keepAliveTimeout: 60_000 }, (req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const at = wallClock();
    const event = (JSON.parse(Buffer.concat(chunks).toString()) as { data: unknown[] }).data[0];
    parentPort!.postMessage({ path: req.url, event, at });
    res.statusCode = 204;
    res.end();
  });
});
// Counted so the bench shows that deliveries reuse their connections (keep-alive) rather than a handshake each.
server.on('secureConnection', () => parentPort!.postMessage({ connection: true }));
server.listen(0, '127.0.0.1', () => parentPort!.postMessage({ port: (server.address() as AddressInfo).port }));
