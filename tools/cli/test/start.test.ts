import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '@storage/testing';
import { runCli, startSystem, stopWithCtrlC } from './support/system';

const portIsClosed = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => { socket.destroy(); resolve(false); });
    socket.once('error', () => resolve(true));
  });

describe('npm start', () => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let ports: { api: number; dispatcher: number; scheduler: number; postgres: number };

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'storage-start-'));
    ports = { api: await freePort(), dispatcher: await freePort(), scheduler: await freePort(), postgres: await freePort() };
    env = {
      PATH: process.env.PATH,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      API_PORT: String(ports.api),
      DISPATCHER_PORT: String(ports.dispatcher),
      SCHEDULER_PORT: String(ports.scheduler),
      EMBEDDED_POSTGRES_PORT: String(ports.postgres),
    };
  });

  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('runs everything, stops everything on Ctrl-C, and keeps the data across a restart', async () => {
    const first = await startSystem(env);
    const demoKey = readFileSync(path.join(dataDir, 'demo-api-key'), 'utf8').trim();
    expect(first.output()).toContain(demoKey);
    expect(first.output()).toContain(`http://localhost:${ports.api}`);
    const portfolios = await fetch(`http://127.0.0.1:${ports.api}/api/portfolios`, { headers: { 'x-api-key': demoKey } });
    expect(portfolios.status).toBe(200);
    expect(await portfolios.json()).toEqual(expect.arrayContaining([expect.objectContaining({ portfolioId: 'demo' })]));

    // Written while the system runs: a new key, stored only in the database.
    const created = runCli(env, 'api-keys', 'create', '--portfolio', 'demo', '--scope', 'read');
    expect(created.status).toBe(0);
    const newKey = /\b(sk_[A-Za-z0-9_-]+)/.exec(created.stdout)?.[1];
    expect(newKey).toBeDefined();

    expect(await stopWithCtrlC(first)).toBe(0);
    for (const port of Object.values(ports)) expect(await portIsClosed(port)).toBe(true);
    expect(existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);

    const second = await startSystem(env);
    try {
      const again = await fetch(`http://127.0.0.1:${ports.api}/api/portfolios`, { headers: { 'x-api-key': newKey! } });
      expect(again.status).toBe(200);
      expect(readFileSync(path.join(dataDir, 'demo-api-key'), 'utf8').trim()).toBe(demoKey);
    } finally {
      expect(await stopWithCtrlC(second)).toBe(0);
    }
  }, 300_000);

  it('stops everything, PostgreSQL included, and exits 1 when a service is killed by a signal', async () => {
    const system = await startSystem(env);
    const exited = new Promise<number | null>((resolve) => system.process.once('exit', (code) => resolve(code)));
    const dispatcher = childrenOf(system.process.pid!).find((pid) => commandLine(pid).includes('webhook-dispatcher'));
    expect(dispatcher).toBeDefined();
    process.kill(dispatcher!, 'SIGKILL');
    expect(await exited).toBe(1);
    expect(system.output()).toContain('dispatcher exited unexpectedly (killed by SIGKILL); stopping everything');
    for (const port of Object.values(ports)) expect(await portIsClosed(port)).toBe(true);
    expect(existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
  }, 300_000);
});

/** The pids whose parent is `pid`, from /proc. */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((candidate) => {
      try {
        // The fields after the command name (which is in parentheses and may hold spaces): state, then ppid.
        const stat = readFileSync(`/proc/${candidate}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false;
      }
    });
}

const commandLine = (pid: number): string => readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
