/**
 * `node packages/messaging/dist/cli.js replay --group <group> --from <ISO> [--to <ISO>] [--redeliver]`
 * (`npm run cli -- replay ...` routes here). Exit codes: 0 done, 1 failed (e.g. the group is running), 2 bad arguments.
 */
import { createPool, locateDatabase } from '@storage/persistence';
import { replayEmbedded } from './replay/embedded-replay';
import { replayKafka } from './replay/kafka-replay';
import { parseReplayArgs, REPLAY_USAGE, UsageError, type ReplayCommand } from './replay/replay-request';

async function replay(command: ReplayCommand): Promise<void> {
  const database = await locateDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: process.env.DATA_DIR ?? '.data' });
  const pool = createPool({ connectionString: database.url, max: 2, application_name: 'replay-cli' }, (error) =>
    process.stderr.write(`database connection lost: ${error.message}\n`),
  );
  const progress = (line: string): void => void process.stdout.write(`${line}\n`);
  const brokers = process.env.KAFKA_BROKERS || undefined;
  try {
    const window = `${command.from.toISOString()} .. ${command.to?.toISOString() ?? 'now'}`;
    progress(`replaying group "${command.group}" from ${window} (${brokers ? `Kafka ${brokers}` : 'embedded log'})${command.redeliver ? ', redelivering' : ''}`);
    if (brokers) await replayKafka(pool, brokers, command, progress);
    else await replayEmbedded(pool, command, progress);
  } finally {
    await pool.end();
    await database.release();
  }
}

async function main(argv: readonly string[]): Promise<number> {
  const [name, ...args] = argv;
  try {
    if (name !== 'replay') throw new UsageError(name ? `unknown command "${name}"` : 'no command given');
    await replay(parseReplayArgs(args));
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n${REPLAY_USAGE}\n`);
      return 2;
    }
    process.stderr.write(`replay failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    process.exit(1);
  },
);
