import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const children = new Set<ChildProcess>();
// A failed run must not leave services behind.
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

export interface Service {
  name: string;
  pid: number;
  /** Where it answers HTTP on 127.0.0.1. */
  port: number;
  stop: () => Promise<void>;
}

/** The built main.js of an app of this repository, from the dispatcher's dist-bench directory. */
export const serviceMain = (app: string): string => path.join(__dirname, '..', '..', app, 'dist', 'main.js');

export const isBuilt = (app: string): boolean => existsSync(serviceMain(app));

/** Starts a built service as its own process and waits until its readiness check answers 200. */
export async function startService(app: string, portVariable: string, env: Record<string, string>): Promise<Service> {
  const port = 40_000 + Math.floor(Math.random() * 20_000);
  // BENCH_NODE_ARGS profiles the services, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`.
  const nodeArgs = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, serviceMain(app)], {
    env: { PATH: process.env.PATH, LOG_LEVEL: 'warn', [portVariable]: String(port), ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  for (let i = 0; ; i += 1) {
    if (child.exitCode !== null) throw new Error(`${app} exited with ${child.exitCode}`);
    if ((await fetch(`http://127.0.0.1:${port}/health/ready`).catch(() => undefined))?.status === 200) break;
    if (i > 600) throw new Error(`${app} did not become ready`);
    await sleep(100);
  }
  return {
    name: app,
    pid: child.pid!,
    port,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
