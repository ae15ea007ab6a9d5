/**
 * The api's commands, reached through the root CLI (`npm run cli -- <command>`):
 *   seed demo [--if-empty | --yes]
 *   seed scale --facilities N --rentals M [--portfolio <id>]
 *   api-keys create --portfolio <id> [--portfolio <id>…] | --all-portfolios  [--scope read|write] [--label <text>]
 */
import 'reflect-metadata';
import { createDataSource, locateDatabase, migrate } from '@storage/persistence';
import type { DataSource } from 'typeorm';
import { createApiKey } from './auth/create-api-key';
import { parseArgs, positiveInt, type ParsedArgs } from './cli-args';
import { API_KEY_SCOPES, type ApiKeyScope } from './model/api-key.entity';
import { DemoExists, seedDemo } from './seed/demo-seed';
import { seedScale } from './seed/scale-seed';

const USAGE = `Usage:
  seed demo [--if-empty | --yes]      an existing demo is kept with --if-empty, replaced with --yes, else refused
  seed scale --facilities N --rentals M [--portfolio <id>]
  api-keys create (--portfolio <id>… | --all-portfolios) [--scope read|write] [--label <text>]`;

const log = (line: string): void => void process.stdout.write(`${line}\n`);

async function run(args: ParsedArgs, dataSource: DataSource): Promise<void> {
  const command = args.positional.join(' ');
  switch (command) {
    case 'seed demo':
      await seedDemo(dataSource, {
        whenExists: args.flags.has('if-empty') ? 'keep' : args.flags.has('yes') ? 'replace' : 'refuse',
        apiKey: process.env.DEMO_API_KEY || undefined,
        dataDir: process.env.DATA_DIR ?? '.data',
        log,
      });
      return;
    case 'seed scale':
      await seedScale(dataSource, {
        portfolioId: args.flags.get('portfolio')?.at(-1) ?? 'scale',
        facilities: positiveInt(args, 'facilities'),
        rentals: positiveInt(args, 'rentals'),
        log,
      });
      return;
    case 'api-keys create': {
      const scope = (args.flags.get('scope')?.at(-1) ?? 'write') as ApiKeyScope;
      if (!API_KEY_SCOPES.includes(scope)) throw new Error(`--scope must be one of ${API_KEY_SCOPES.join(', ')}`);
      const portfolios = args.flags.get('portfolio') ?? [];
      const all = args.flags.has('all-portfolios');
      if (portfolios.length === 0 && !all) throw new Error('--portfolio <id> (repeatable) or --all-portfolios is required');
      const { key } = await createApiKey(dataSource, { portfolioIds: all ? null : portfolios, scope, label: args.flags.get('label')?.at(-1) ?? '' });
      log(`API key (${scope}, ${all ? 'all portfolios' : portfolios.join(', ')}); shown once, store it now:`);
      log(key);
      return;
    }
    default:
      throw new Error(`Unknown command "${command}".\n${USAGE}`);
  }
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const database = await locateDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: process.env.DATA_DIR ?? '.data' });
  try {
    // Seeds and keys need the schema; applying pending migrations first is a no-op when `npm start` did it.
    await migrate(database.url);
    const dataSource = await createDataSource({ url: database.url, applicationName: 'api-cli' }).initialize();
    try {
      await run(args, dataSource);
    } finally {
      await dataSource.destroy();
    }
  } finally {
    await database.release();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  // Refusing to replace the demo unasked is a usage error, as the router's are.
  process.exitCode = error instanceof DemoExists ? 2 : 1;
});
