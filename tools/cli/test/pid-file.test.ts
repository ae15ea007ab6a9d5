import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AlreadyRunning, claimPidFile } from '../src/supervision/pid-file';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'storage-pid-'));
});
afterEach(async () => rm(dataDir, { recursive: true, force: true }));

const pidFile = () => path.join(dataDir, 'start.pid');

describe('the supervisor pid file', () => {
  it('refuses while the pid it names is alive, and leaves the file', () => {
    writeFileSync(pidFile(), `${process.ppid}\n`);
    expect(() => claimPidFile(dataDir)).toThrow(AlreadyRunning);
    expect(readFileSync(pidFile(), 'utf8')).toBe(`${process.ppid}\n`);
  });

  it('takes over the file of a supervisor that died without removing it (SIGKILL)', () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    writeFileSync(pidFile(), `${dead}\n`);
    const release = claimPidFile(dataDir);
    expect(readFileSync(pidFile(), 'utf8')).toBe(`${process.pid}\n`);
    release();
    expect(existsSync(pidFile())).toBe(false);
  });
});
