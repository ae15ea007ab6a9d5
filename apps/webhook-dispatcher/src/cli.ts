/**
 * `node apps/webhook-dispatcher/dist/cli.js webhooks listen|resend|recover|trigger ...` (`npm run cli -- webhooks ...`
 * routes here). Exit codes: 0 done, 1 failed (the api or the database refused or could not be reached), 2 bad
 * arguments (an unknown message, endpoint or event type among them).
 */
import 'reflect-metadata';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { isPublicEventType, isUuid, PUBLIC_EVENT_TYPES } from '@storage/domain';
import { createDataSource, locateDatabase } from '@storage/persistence';
import { attemptsSince, commandApplied, endpointFacts, messageFacts, requestCommand } from './cli/message-requests';
import { listenCommand } from './cli/listen-command';
import { triggerTestEvent } from './cli/trigger';
import { UsageError } from './cli/usage-error';

function isoTime(value: string): Date {
  const time = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}(T|$)/.test(value) || Number.isNaN(time.getTime()))
    throw new InvalidArgumentError('an ISO 8601 time is needed, e.g. 2025-04-01T00:00:00Z');
  return time;
}

function uuid(value: string): string {
  if (!isUuid(value)) throw new InvalidArgumentError('a UUID is needed');
  return value;
}

function seconds(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 3600) throw new InvalidArgumentError('a whole number of seconds from 0 to 3600 is needed');
  return n;
}

const out = (line: string): void => void process.stdout.write(`${line}\n`);
/** The dispatcher's consumer group, whose processed-event mark tells the command was applied. */
const group = (): string => process.env.DISPATCHER_CONSUMER_GROUP || 'webhook-dispatcher';

async function withDatabase<T>(work: (dataSource: Awaited<ReturnType<typeof openDataSource>>) => Promise<T>): Promise<T> {
  const database = await locateDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: process.env.DATA_DIR ?? '.data' });
  try {
    const dataSource = await openDataSource(database.url);
    try {
      return await work(dataSource);
    } finally {
      await dataSource.destroy();
    }
  } finally {
    await database.release();
  }
}

const openDataSource = (url: string) => createDataSource({ url, applicationName: 'webhook-dispatcher-cli', poolSize: 2 }).initialize();

type Db = Awaited<ReturnType<typeof openDataSource>>;

/** Waits (polling the database) until `done` is true or `waitSeconds` pass; true when done. */
async function waitFor(done: () => Promise<boolean>, waitSeconds: number): Promise<boolean> {
  const deadline = Date.now() + waitSeconds * 1000;
  for (;;) {
    if (await done()) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** After the request is written: waits for the running dispatcher to apply it, and says which happened. */
async function awaitApplied(db: Db, eventId: string, waitSeconds: number): Promise<boolean> {
  out(`waiting up to ${waitSeconds} s for the dispatcher (consumer group "${group()}") to apply it ...`);
  const applied = await waitFor(() => commandApplied(db, group(), eventId), waitSeconds);
  if (!applied) {
    out(`the dispatcher has not applied it yet (it is not running, or behind): it will when it runs; nothing else is needed`);
  }
  return applied;
}

async function resend(messageId: string, options: { wait: number }): Promise<void> {
  await withDatabase(async (db) => {
    const message = await messageFacts(db, messageId);
    if (!message) throw new UsageError(`unknown message id "${messageId}" (the portal's delivery log and the hook-id header show message ids)`);
    out(
      `message ${message.id}: ${message.eventType} to endpoint ${message.endpointId} (portfolio ${message.portfolio}), ` +
        `${message.status} after ${message.attempts} attempt(s)`,
    );
    if (message.endpointDisabled) out(`note: endpoint ${message.endpointId} is disabled: the message is sent once it is enabled again`);
    const requested = new Date();
    const envelope = await requestCommand(db, { type: 'webhook-resend', portfolio: message.portfolio, messageId: message.id });
    out(`resend requested (command ${envelope.eventId}): a new attempt under the same hook-id ${message.id}`);
    if (!(await awaitApplied(db, envelope.eventId, options.wait))) return;
    out(`queued again by the dispatcher`);
    if (message.endpointDisabled) return;
    const attempted = await waitFor(async () => (await attemptsSince(db, message.id, requested)).length > 0, options.wait);
    const [attempt] = await attemptsSince(db, message.id, requested);
    if (!attempted || !attempt) return out(`not attempted yet: the dispatcher sends it as soon as the endpoint has room`);
    const outcome = attempt.statusCode === null ? (attempt.error ?? 'no answer') : `HTTP ${attempt.statusCode}`;
    out(`attempted at ${attempt.attemptedAt.toISOString()}: ${attempt.succeeded ? 'delivered' : 'failed'} (${outcome}, ${attempt.latencyMs} ms)`);
  });
}

async function recover(options: { endpoint: string; since: Date; wait: number }): Promise<void> {
  await withDatabase(async (db) => {
    const endpoint = await endpointFacts(db, options.endpoint, options.since);
    if (!endpoint) throw new UsageError(`unknown endpoint id "${options.endpoint}"`);
    out(
      `endpoint ${endpoint.id} (${endpoint.url}, portfolio ${endpoint.portfolio}): ${endpoint.failedSince} failed message(s) since ${options.since.toISOString()}`,
    );
    if (endpoint.disabled) out(`note: the endpoint is disabled: its messages are sent once it is enabled again (portal)`);
    const envelope = await requestCommand(db, { type: 'webhook-recover', portfolio: endpoint.portfolio, endpointId: endpoint.id, since: options.since });
    out(`recover requested (command ${envelope.eventId}): each a new attempt under its own hook-id`);
    if (await awaitApplied(db, envelope.eventId, options.wait)) out(`queued again by the dispatcher`);
  });
}

const WAIT_OPTION = ['--wait <seconds>', 'how long to wait for the running dispatcher to apply the request', seconds, 30] as const;

function program(): Command {
  const root = new Command('npm run cli --').exitOverride().showHelpAfterError('(add --help for usage)');
  const webhooks = root.command('webhooks').description('webhook messages: listen on a laptop, resend, recover, trigger a test event');
  webhooks.addCommand(listenCommand());
  webhooks
    .command('resend')
    .description('send one message again as a new attempt under the same hook-id, as the portal\'s "Resend" does')
    .argument('<message-id>', 'the message (its hook-id)')
    .option(...WAIT_OPTION)
    .action((messageId: string, options: { wait: number }) => resend(messageId, options));
  webhooks
    .command('recover')
    .description('send again every failed message of an endpoint created since a time, each under its own hook-id, as the portal\'s "Recover" does')
    .requiredOption('--endpoint <endpoint-id>', 'the endpoint (subscription) id', uuid)
    .requiredOption('--since <ISO time>', 'the oldest messages to send again', isoTime)
    .option(...WAIT_OPTION)
    .action((options: { endpoint: string; since: Date; wait: number }) => recover(options));
  webhooks
    .command('trigger')
    .description("send operation 19's test event (marked test: true) to the portfolio's endpoints subscribed to the event type, through the running api")
    .argument('<event-type>', `one of ${PUBLIC_EVENT_TYPES.join(', ')}`)
    .requiredOption('--portfolio <id>', 'the portfolio whose endpoints receive it')
    .option('--api <base url>', 'the running api (default http://localhost:$API_PORT, API_PORT 3000)')
    .option('--api-key <key>', 'an API key of the portfolio (default: STORAGE_API_KEY)')
    .action(async (eventType: string, options: { portfolio: string; api?: string; apiKey?: string }) => {
      if (!isPublicEventType(eventType)) throw new UsageError(`unknown event type "${eventType}"; event types: ${PUBLIC_EVENT_TYPES.join(', ')}`);
      const apiKey = options.apiKey ?? process.env.STORAGE_API_KEY;
      if (!apiKey) throw new UsageError('an API key is needed: --api-key <key> or STORAGE_API_KEY');
      const api = options.api ?? `http://localhost:${process.env.API_PORT || '3000'}`;
      await triggerTestEvent({ api, apiKey, portfolio: options.portfolio, eventType }, out);
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
      process.stderr.write(`webhooks: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
