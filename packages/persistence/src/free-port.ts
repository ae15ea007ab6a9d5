import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * A TCP port nothing listens on now, for a server of one's own (a test's embedded PostgreSQL, a service it
 * starts): one at random below the kernel's ephemeral range (`ip_local_port_range`). A port of that range may
 * meanwhile be handed to an outgoing connection of another process (a database client, say), and the server,
 * binding it later, fails with EADDRINUSE: CI saw the cli's journey start its scheduler half a minute after
 * choosing a port that a connection had taken by then, and an embedded cluster binds only after its `initdb`.
 * Never one that `fetch` refuses to connect to: CI saw a test's health check of the dispatcher fail on 10080.
 */
export async function freePort(): Promise<number> {
  const below = Math.max(ephemeralPortsFrom(), LOWEST_PORT + 1_000);
  for (let attempt = 1; ; attempt++) {
    const port = LOWEST_PORT + Math.floor(Math.random() * (below - LOWEST_PORT));
    if (!FETCH_BAD_PORTS.has(port) && (await nothingListensOn(port))) return port;
    if (attempt === 100) throw new Error(`no free port between ${LOWEST_PORT} and ${below} in 100 tries`);
  }
}

/** Above the ports of well-known services (Kafka's 9092 among them). */
const LOWEST_PORT = 10_000;

/** The Fetch standard's "bad ports" (https://fetch.spec.whatwg.org/#bad-port) at or above LOWEST_PORT. */
const FETCH_BAD_PORTS = new Set([10_080]);

/** Where the kernel's ephemeral ports start (Linux; 32768, its default, elsewhere). */
export function ephemeralPortsFrom(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32_768;
  } catch {
    return 32_768;
  }
}

function nothingListensOn(port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' || error.code === 'EACCES' ? resolve(false) : reject(error)));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
