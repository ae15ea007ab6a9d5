import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AlreadyRunning, claimPidFile } from '../src/supervision/pid-file';

/** Called after each of node:fs's synchronous calls, so that a test can act as a rival supervisor in between. */
let afterFsCall: (name: string, args: unknown[]) => void = () => undefined;
jest.mock('node:fs', () => {
  const actual = jest.requireActual<Record<string, unknown>>('node:fs');
  const hooked =
    (name: string, call: (...args: unknown[]) => unknown) =>
    (...args: unknown[]) => {
      const result = call(...args);
      afterFsCall(name, args);
      return result;
    };
  return Object.fromEntries(
    Object.entries(actual).map(([name, value]) => [
      name,
      name.endsWith('Sync') && typeof value === 'function' ? hooked(name, value as (...args: unknown[]) => unknown) : value,
    ]),
  );
});

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'storage-pid-'));
});
afterEach(async () => {
  afterFsCall = () => undefined;
  await rm(dataDir, { recursive: true, force: true });
});

const pidFile = () => path.join(dataDir, 'start.pid');
const builtPidFile = path.resolve(__dirname, '../dist/supervision/pid-file.js');

/** The pid of a process that has exited. */
const deadPid = () => spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;

/** What a claimant says first; a claimant that fails says what failed. */
const outcomeOf = (child: ChildProcessWithoutNullStreams) =>
  new Promise<string>((resolve, reject) => {
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString()));
    child.once('close', (code) => reject(new Error(`a claimant ended (${code}) without an outcome: ${errors}`)));
  });

/** The rival's own calls, which are not hooked. */
const rivalFs = jest.requireActual<typeof import('node:fs')>('node:fs');

describe('the supervisor pid file', () => {
  it('refuses while the pid it names is alive, and leaves the file', () => {
    writeFileSync(pidFile(), `${process.ppid}\n`);
    expect(() => claimPidFile(dataDir)).toThrow(AlreadyRunning);
    expect(readFileSync(pidFile(), 'utf8')).toBe(`${process.ppid}\n`);
  });

  it('takes over the file of a supervisor that died without removing it (SIGKILL)', () => {
    writeFileSync(pidFile(), `${deadPid()}\n`);
    const release = claimPidFile(dataDir);
    expect(readFileSync(pidFile(), 'utf8')).toBe(`${process.pid}\n`);
    expect(readdirSync(dataDir)).toEqual(['start.pid']);
    release();
    expect(existsSync(pidFile())).toBe(false);
  });

  it('is never seen empty or half-written by a supervisor starting alongside, at any step of a claim', () => {
    const seen: string[] = [];
    afterFsCall = () => {
      if (rivalFs.existsSync(pidFile())) seen.push(rivalFs.readFileSync(pidFile(), 'utf8'));
    };
    const release = claimPidFile(dataDir);
    afterFsCall = () => undefined;
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.filter((content) => content !== `${process.pid}\n`)).toEqual([]);
    release();
  });

  it('is never vacant, empty or half-written while a stale file is taken over', () => {
    const stale = `${deadPid()}\n`;
    writeFileSync(pidFile(), stale);
    const seen: (string | undefined)[] = [];
    afterFsCall = () => seen.push(rivalFs.existsSync(pidFile()) ? rivalFs.readFileSync(pidFile(), 'utf8') : undefined);
    const release = claimPidFile(dataDir);
    afterFsCall = () => undefined;
    expect(seen.filter((content) => content !== stale && content !== `${process.pid}\n`)).toEqual([]);
    expect(seen.at(-1)).toBe(`${process.pid}\n`);
    release();
  });

  it('takes over a stale file when a takeover before died midway', () => {
    writeFileSync(pidFile(), `${deadPid()}\n`);
    writeFileSync(`${pidFile()}.takeover`, `${deadPid()}\n`);
    const release = claimPidFile(dataDir);
    expect(readFileSync(pidFile(), 'utf8')).toBe(`${process.pid}\n`);
    expect(readdirSync(dataDir)).toEqual(['start.pid']);
    release();
  });

  it('leaves the file of a supervisor that took a stale file over between the read and the takeover', () => {
    writeFileSync(pidFile(), `${deadPid()}\n`);
    // Right after this claim has read the dead pid, a rival (the jest parent, alive) takes the file over.
    afterFsCall = (name, args) => {
      if (name !== 'readFileSync' || args[0] !== pidFile()) return;
      afterFsCall = () => undefined;
      rivalFs.rmSync(pidFile());
      rivalFs.writeFileSync(pidFile(), `${process.ppid}\n`);
    };
    expect(() => claimPidFile(dataDir)).toThrow(AlreadyRunning);
    expect(readFileSync(pidFile(), 'utf8')).toBe(`${process.ppid}\n`);
    expect(readdirSync(dataDir)).toEqual(['start.pid']);
  });

  it('is held by exactly one of several supervisors starting at the same moment, over a stale file or none', async () => {
    // Each claimant waits for the same instant and claims through the built module; the one that holds the file
    // keeps it until its input ends, after every other has answered.
    const claimant = `
      const { claimPidFile, AlreadyRunning } = require(${JSON.stringify(builtPidFile)});
      const at = Number(process.argv[1]);
      while (Date.now() < at);
      try {
        const release = claimPidFile(${JSON.stringify(dataDir)});
        process.stdout.write('held');
        process.stdin.on('end', release).resume();
      } catch (error) {
        if (!(error instanceof AlreadyRunning)) throw error;
        process.stdout.write('refused');
      }`;
    for (let round = 0; round < 6; round++) {
      if (round % 2 === 1) writeFileSync(pidFile(), `${deadPid()}\n`);
      const at = Date.now() + 1000;
      const claimants = Array.from({ length: 6 }, () => spawn(process.execPath, ['-e', claimant, String(at)]));
      const closed = claimants.map((child) => once(child, 'close'));
      try {
        const outcomes = await Promise.all(claimants.map(outcomeOf));
        expect(outcomes.sort()).toEqual(['held', 'refused', 'refused', 'refused', 'refused', 'refused']);
      } finally {
        claimants.forEach((child) => child.stdin.end());
        await Promise.all(closed);
      }
      expect(readdirSync(dataDir)).toEqual([]);
    }
  }, 120_000);
});
