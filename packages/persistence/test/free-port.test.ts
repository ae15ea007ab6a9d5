import { createServer } from 'node:net';
import { ephemeralPortsFrom, freePort } from '../src/free-port';

describe('freePort', () => {
  it('answers ports below the ephemeral range, which outgoing connections cannot take before the server binds them', async () => {
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThan(ephemeralPortsFrom());
    }
  });

  it('answers a port a server can listen on', async () => {
    const port = await freePort();
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
    await new Promise((resolve) => server.close(resolve));
  });
});
