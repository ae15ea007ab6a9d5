/**
 * The api's commands, reached through the root CLI (`npm run cli -- <command>`); `--help` on any of them:
 *   seed demo [--if-empty | --yes]
 *   seed scale --facilities N --rentals M [--portfolio <id>]
 *   api-keys create (--portfolio <id>… | --all-portfolios | --admin) [--scope read|write] [--label <text>]
 *   api-keys list [--portfolio <id>]
 *   api-keys revoke <uuid or prefix> --yes
 *   import <file> [--dry-run]
 * Exit codes: 0 done, 1 failed, 2 usage error or refused.
 */
import 'reflect-metadata';
import path from 'node:path';
import { Command, CommanderError, Option } from 'commander';
import { assertMigrated, createDataSource, locateDatabase } from '@storage/persistence';
import type { DataSource } from 'typeorm';
import { createApiKey } from './auth/create-api-key';
import { assertPortfolios, listApiKeys, revokeApiKey, NotFound } from './auth/manage-api-keys';
import { positiveInt } from './cli-args';
import { PORTFOLIO_KEY_SCOPES, type ApiKeyScope } from './model/api-key.entity';
import { describe, importPortfolio } from './onboarding/import/import-portfolio';
import { ImportRefused, readPortfolioFile } from './onboarding/import/portfolio-file';
import { DemoExists, seedDemo } from './seed/demo-seed';
import { seedScale } from './seed/scale-seed';

const log = (line: string): void => void process.stdout.write(`${line}\n`);

/** Refused before anything changed: exit 2, as usage errors. */
class Refused extends Error {}

/**
 * Opens the database for one command. Seeds and keys need the schema, and migrating is its own step (`db migrate`,
 * npm start's first): a database without every migration is refused, naming the step, and nothing is written.
 */
async function withDatabase(work: (dataSource: DataSource) => Promise<void>): Promise<void> {
  const database = await locateDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: process.env.DATA_DIR ?? '.data' });
  try {
    const dataSource = await createDataSource({ url: database.url, applicationName: 'api-cli' }).initialize();
    try {
      await assertMigrated(dataSource);
      await work(dataSource);
    } finally {
      await dataSource.destroy();
    }
  } finally {
    await database.release();
  }
}

const date = (value: Date | null): string => (value === null ? '-' : value.toISOString().replace(/\.\d+Z$/, 'Z'));

function program(): Command {
  const root = new Command('npm run cli --').exitOverride().showHelpAfterError('(add --help for usage)');
  const seed = root.command('seed').description('fill the database with a portfolio');
  seed
    .command('demo')
    .description('the demo portfolio (a few facilities, units, tenants and a demo API key); an existing one is refused unless --yes or --if-empty')
    .addOption(new Option('--yes', 'replace an existing demo (the leads, rentals and lease links created in it since are lost)').conflicts('ifEmpty'))
    .option('--if-empty', 'keep an existing demo (what npm start does)')
    .action(async (options: { yes?: true; ifEmpty?: true }) => {
      log('seeding the demo portfolio');
      await withDatabase(async (dataSource) => {
        await seedDemo(dataSource, {
          whenExists: options.ifEmpty ? 'keep' : options.yes ? 'replace' : 'refuse',
          apiKey: process.env.DEMO_API_KEY || undefined,
          dataDir: process.env.DATA_DIR ?? '.data',
          log,
        });
      });
    });
  seed
    .command('scale')
    .description('a large portfolio for benchmarks, written by set-based SQL')
    .requiredOption('--facilities <N>', 'facilities', positiveInt)
    .requiredOption('--rentals <M>', 'rentals, spread evenly over the facilities', positiveInt)
    .option('--portfolio <id>', 'the new portfolio', 'scale')
    .action(async (options: { facilities: number; rentals: number; portfolio: string }) => {
      log(`seeding portfolio "${options.portfolio}": ${options.facilities} facilities, ${options.rentals} rentals`);
      await withDatabase((dataSource) =>
        seedScale(dataSource, { portfolioId: options.portfolio, facilities: options.facilities, rentals: options.rentals, log }),
      );
    });

  const keys = root.command('api-keys').description('API keys: create, list, revoke');
  keys
    .command('create')
    .description('a new key, printed once (only its hash is stored)')
    .option('--portfolio <id>', 'a portfolio it reaches (repeatable)', (id: string, ids: string[] = []) => [...ids, id])
    .addOption(new Option('--all-portfolios', 'reach every portfolio, present and future').conflicts('portfolio'))
    .addOption(
      new Option('--admin', 'an admin key: every portfolio, and creating portfolios (PUT /api/v1/portfolios/<id>)').conflicts([
        'portfolio',
        'allPortfolios',
        'scope',
      ]),
    )
    .addOption(new Option('--scope <scope>', 'write (the default) includes read').choices(PORTFOLIO_KEY_SCOPES))
    .option('--label <text>', 'what it is for', '')
    .action(async (options: { portfolio?: string[]; allPortfolios?: true; admin?: true; scope?: ApiKeyScope; label: string }, command: Command) => {
      if (!options.portfolio && !options.allPortfolios && !options.admin)
        command.error('error: --portfolio <id> (repeatable), --all-portfolios or --admin is required');
      const portfolios = options.allPortfolios || options.admin ? null : (options.portfolio ?? []);
      const scope: ApiKeyScope = options.admin ? 'admin' : (options.scope ?? 'write');
      await withDatabase(async (dataSource) => {
        if (portfolios !== null) await assertPortfolios(dataSource, portfolios);
        const { key } = await createApiKey(dataSource, { portfolioIds: portfolios, scope, label: options.label });
        log(`API key (${scope}, ${portfolios === null ? 'all portfolios' : portfolios.join(', ')}); shown once, store it now:`);
        log(key);
      });
    });
  keys
    .command('list')
    .description('the keys reaching a portfolio (or all keys): id, prefix, scope, portfolios, created, revoked; never the key')
    .option('--portfolio <id>', 'only the keys reaching this portfolio')
    .action(async (options: { portfolio?: string }) => {
      await withDatabase(async (dataSource) => {
        const listed = await listApiKeys(dataSource, options.portfolio);
        log(['uuid', 'prefix', 'scope', 'portfolios', 'created', 'revoked', 'label'].join('\t'));
        for (const key of listed) {
          log([key.uuid, key.prefix, key.scope, key.portfolios?.join(',') ?? '*', date(key.createdAt), date(key.revokedAt), key.label].join('\t'));
        }
        log(`${listed.length} key(s)`);
      });
    });
  keys
    .command('revoke')
    .description('revoke a key at once and for good (the api refuses it within 10 s)')
    .argument('<key>', 'its uuid or prefix, as api-keys list shows them')
    .option('--yes', 'revoke it (without: refused, nothing changes)')
    .action(async (id: string, options: { yes?: true }) => {
      if (!options.yes) throw new Refused(`Revoking a key cannot be undone: \`api-keys revoke ${id} --yes\` revokes it.`);
      await withDatabase(async (dataSource) => {
        const key = await revokeApiKey(dataSource, id);
        log(`revoked API key ${key.uuid} (${key.prefix}, ${key.scope}) at ${date(key.revokedAt)}`);
      });
    });

  root
    .command('import')
    .description("load a whole portfolio from a JSON file (layout: tools/cli/README.md) through the api's onboarding; a rerun changes nothing")
    .argument('<file>', 'the portfolio file, e.g. docs/examples/portfolio.json')
    .option('--dry-run', 'check the file against the database and say what would change; write nothing')
    .action(async (file: string, options: { dryRun?: true }) => {
      const dryRun = options.dryRun === true;
      log(`importing ${file}${dryRun ? ' (dry run: nothing will be written)' : ''}`);
      // npm runs scripts from the repository root; a relative path is the operator's, from where npm was run.
      const portfolio = await readPortfolioFile(path.resolve(process.env.INIT_CWD ?? process.cwd(), file));
      await withDatabase(async (dataSource) => {
        const counts = await importPortfolio(dataSource, portfolio, { dryRun, log });
        const changed = counts.created + counts.updated > 0;
        if (dryRun)
          log(
            changed
              ? `dry run: ${describe(counts)} if imported; nothing was written`
              : `dry run: nothing to change (${counts.unchanged} records already as in the file)`,
          );
        else
          log(
            changed
              ? `imported portfolio ${portfolio.portfolio.portfolioId}: ${describe(counts)}`
              : `nothing changed: portfolio ${portfolio.portfolio.portfolioId} already holds the file (${counts.unchanged} records)`,
          );
      });
    });
  return root;
}

program()
  .parseAsync(process.argv.slice(2), { from: 'user' })
  .catch((error: unknown) => {
    // commander printed the usage or the usage error itself.
    if (error instanceof CommanderError) {
      process.exitCode = error.exitCode === 0 ? 0 : 2;
      return;
    }
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    // Refusing to replace the demo or revoke a key unasked, naming no such key, or a file that cannot be imported, is a usage error.
    process.exitCode = error instanceof DemoExists || error instanceof Refused || error instanceof NotFound || error instanceof ImportRefused ? 2 : 1;
  });
