/**
 * `node packages/messaging/dist/cli.js replay --group <group> --from <ISO> [--to <ISO>] [--redeliver]`
 * (`npm run cli -- replay ...` routes here). Exit codes: 0 done, 1 failed (e.g. a replay before what outbox retention kept),
 * 2 bad arguments or a group this system does not know.
 */
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import type { Pool } from 'pg';
import { createPool, locateDatabase, query, sql } from '@storage/persistence';
import { RELAY_PREFIX } from './embedded/advisory-lock';
import { createKafka } from './kafka/kafka-client';
import { replayEmbedded } from './replay/embedded-replay';
import { replayKafka } from './replay/kafka-replay';
import { UsageError, type ReplayCommand } from './replay/replay-request';

function isoTime(value: string): Date {
  const time = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(time.getTime())) throw new InvalidArgumentError('an ISO 8601 time is needed');
  return time;
}

const CONSUMER_GROUPS = sql<{ group: string }, [relayPattern: string]>(
  `SELECT consumer_group AS group FROM consumer_offsets WHERE consumer_group NOT LIKE $1 ORDER BY consumer_group`,
);

/** The groups that have consumed here: positions in the database (embedded) or the broker's groups (Kafka). */
async function knownGroups(pool: Pool, brokers: string | undefined): Promise<string[]> {
  if (!brokers) {
    const rows = await query(pool, CONSUMER_GROUPS, [`${RELAY_PREFIX}%`]);
    return rows.map((row) => row.group);
  }
  const admin = createKafka(brokers, 'replay-cli').admin();
  await admin.connect();
  try {
    return (await admin.listGroups()).groups.map((group) => group.groupId).sort();
  } finally {
    await admin.disconnect();
  }
}

async function replay(command: ReplayCommand): Promise<void> {
  const progress = (line: string): void => void process.stdout.write(`${line}\n`);
  const brokers = process.env.KAFKA_BROKERS || undefined;
  const window = `${command.from.toISOString()} .. ${command.to?.toISOString() ?? 'now'}`;
  progress(`replaying group "${command.group}" from ${window} (${brokers ? `Kafka ${brokers}` : 'embedded log'})${command.redeliver ? ', redelivering' : ''}`);
  const database = await locateDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: process.env.DATA_DIR ?? '.data' });
  const pool = createPool({ connectionString: database.url, max: 2, application_name: 'replay-cli' }, (error) =>
    process.stderr.write(`database connection lost: ${error.message}\n`),
  );
  try {
    // A mistyped group would otherwise "replay" a group nobody runs, and say nothing was wrong.
    const known = await knownGroups(pool, brokers);
    if (!known.includes(command.group)) {
      throw new UsageError(`unknown consumer group "${command.group}"; known groups: ${known.length ? known.join(', ') : 'none (nothing has consumed yet)'}`);
    }
    if (brokers) await replayKafka(pool, brokers, command, progress);
    else await replayEmbedded(pool, command, progress);
  } finally {
    await pool.end();
    await database.release();
  }
}

function program(): Command {
  const root = new Command('npm run cli --').exitOverride().showHelpAfterError('(add --help for usage)');
  root
    .command('replay')
    .description(
      "move a consumer group back so it reads again the events committed from a time on (a running group's consumers move themselves, and this waits until they have); effects already applied are not applied twice",
    )
    .requiredOption('--group <group>', 'the consumer group (e.g. webhook-dispatcher, delinquency-scheduler.payments)')
    .requiredOption('--from <ISO time>', 'the first events to read again', isoTime)
    .option('--to <ISO time>', 'the last events to read again (default: now)', isoTime)
    .option('--redeliver', 'deliver again what was already delivered (webhooks are sent again, marked as redeliveries)')
    .action(async (options: { group: string; from: Date; to?: Date; redeliver?: true }) => {
      if (options.to && options.to < options.from) throw new UsageError('--to must not be before --from');
      await replay({ group: options.group, from: options.from, to: options.to, redeliver: options.redeliver ?? false });
    });
  return root;
}

program()
  .parseAsync(process.argv.slice(2), { from: 'user' })
  .then(
    () => process.exit(0),
    (error: unknown) => {
      // commander printed the usage or the usage error itself: help exits 0, a usage error 2.
      if (error instanceof CommanderError) process.exit(error.exitCode === 0 ? 0 : 2);
      if (error instanceof UsageError) {
        process.stderr.write(`error: ${error.message}\n(add --help for usage)\n`);
        process.exit(2);
      }
      process.stderr.write(`replay failed: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
