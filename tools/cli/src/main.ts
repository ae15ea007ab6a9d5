import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Command, CommanderError } from 'commander';
import { locateDatabase } from '@storage/persistence';
import { helpRequest, PROGRAM, repoRoot, ROUTED_COMMANDS } from './commands';
import { applyMigrations } from './migrate-step';
import { start } from './start';

const dataDir = () => path.resolve(repoRoot, process.env.DATA_DIR ?? '.data');

async function dbMigrate(): Promise<void> {
  const database = await locateDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: dataDir() });
  try {
    await applyMigrations(database.url, (line) => process.stdout.write(`${line}\n`));
  } finally {
    await database.release();
  }
}

/** A routed command silent this long says it is still at work, so no long command looks hung. */
const HEARTBEAT_MS = 5_000;

function route(command: string, args: string[]): Promise<number> {
  const target = ROUTED_COMMANDS[command];
  const entry = path.join(repoRoot, target.entry);
  if (!existsSync(entry)) throw new Error(`${target.owner} is not built: run npm run build`);
  const child = spawn(process.execPath, [entry, command, ...args], { stdio: ['inherit', 'pipe', 'pipe'], env: { ...process.env, DATA_DIR: dataDir() } });
  const started = Date.now();
  let lastOutput = started;
  child.stdout.on('data', (chunk: Buffer) => ((lastOutput = Date.now()), process.stdout.write(chunk)));
  child.stderr.on('data', (chunk: Buffer) => ((lastOutput = Date.now()), process.stderr.write(chunk)));
  const waitsForEvents = target.runsUntilStopped?.includes(args[0]) ?? false;
  const heartbeat = setInterval(() => {
    if (waitsForEvents || Date.now() - lastOutput < HEARTBEAT_MS) return;
    lastOutput = Date.now();
    // On stderr: stdout stays the command's own output (a new API key, a listing) for scripts.
    process.stderr.write(`${command}: still working (${Math.round((Date.now() - started) / 1000)} s)\n`);
  }, 250);
  // A stop asked of this process (a process manager's SIGTERM, a SIGINT to it alone) is the command's to handle.
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on('SIGINT', forward).on('SIGTERM', forward);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearInterval(heartbeat);
      process.off('SIGINT', forward).off('SIGTERM', forward);
      resolve(code ?? 1);
    }),
  );
}

function program(result: { code: number }): Command {
  const root = new Command(PROGRAM)
    .usage('<command> [options]')
    .description('The command line of the storage rental platform. Every command takes --help.')
    .exitOverride()
    .showHelpAfterError('(add --help for usage)');
  root
    .command('start')
    .description('run the whole system (embedded PostgreSQL unless DATABASE_URL is set); Ctrl-C stops it')
    .action(async () => void (result.code = await start({ dataDir: dataDir() })));
  root.command('db').description('the database schema').command('migrate').description('apply pending migrations').action(dbMigrate);
  for (const [name, { summary }] of Object.entries(ROUTED_COMMANDS)) {
    // The owning workspace parses the rest (with commander as well) and prints its own usage.
    root
      .command(name)
      .description(summary)
      .helpOption(false)
      .allowUnknownOption()
      .allowExcessArguments()
      .argument('[arguments...]')
      .action(async (args: string[]) => void (result.code = await route(name, args)));
  }
  return root;
}

async function main(argv: string[]): Promise<number> {
  const result = { code: 0 };
  try {
    // `help <command…>` is `<command…> --help`, so a routed command prints its own usage.
    const args = argv[0] === 'help' && argv.length > 1 ? [...argv.slice(1), '--help'] : argv;
    await program(result).parseAsync(helpRequest(args) ?? (args.length === 0 ? ['--help'] : args), { from: 'user' });
    return result.code;
  } catch (error) {
    // commander has printed the usage or the usage error; a usage error exits 2, help 0.
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

void main(process.argv.slice(2)).then((code) => process.exit(code));
