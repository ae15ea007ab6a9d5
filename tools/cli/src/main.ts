import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { locateDatabase, migrate } from '@storage/persistence';
import { repoRoot, ROUTED_COMMANDS, USAGE, usageOf } from './commands';
import { start } from './start';

const dataDir = () => path.resolve(repoRoot, process.env.DATA_DIR ?? '.data');

async function dbMigrate(): Promise<void> {
  const database = await locateDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: dataDir() });
  try {
    const applied = await migrate(database.url, (line) => process.stdout.write(`${line}\n`));
    process.stdout.write(applied.length ? `${applied.length} migration(s) applied\n` : 'database is up to date\n');
  } finally {
    await database.release();
  }
}

function route(command: string, args: string[]): Promise<number> {
  const target = ROUTED_COMMANDS[command];
  if (!target) throw new UsageError(`unknown command "${command}"`);
  const entry = path.join(repoRoot, target.entry);
  if (!existsSync(entry)) throw new Error(`${target.owner} is not built: run npm run build`);
  const child = spawn(process.execPath, [entry, command, ...args], { stdio: 'inherit', env: { ...process.env, DATA_DIR: dataDir() } });
  return new Promise((resolve) => child.on('exit', (code) => resolve(code ?? 1)));
}

class UsageError extends Error {}

/** `--help` or `-h` anywhere asks for the usage: it is printed and nothing runs, whatever the command. */
const HELP_FLAGS = new Set(['--help', '-h']);

async function main([command, ...args]: string[]): Promise<number> {
  if (command === undefined || command === 'help' || HELP_FLAGS.has(command) || args.some((arg) => HELP_FLAGS.has(arg))) {
    process.stdout.write(usageOf(command));
    return 0;
  }
  switch (command) {
    case 'start':
      return start({ dataDir: dataDir() });
    case 'db':
      if (args[0] !== 'migrate') throw new UsageError('db takes: migrate');
      await dbMigrate();
      return 0;
    default:
      return route(command, args);
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    if (error instanceof UsageError) process.stderr.write(USAGE);
    process.exit(error instanceof UsageError ? 2 : 1);
  },
);
