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

  it("never answers a port that fetch refuses to connect to (the Fetch standard's bad ports, 10080 among them)", async () => {
    await expect(fetch('http://127.0.0.1:10080/')).rejects.toMatchObject({ cause: { message: 'bad port' } });
    const pickOf10080 = (80 + 0.5) / (ephemeralPortsFrom() - 10_000);
    const random = jest.spyOn(Math, 'random').mockReturnValueOnce(pickOf10080);
    try {
      expect(await freePort()).not.toBe(10_080);
    } finally {
      random.mockRestore();
    }
  });
});
