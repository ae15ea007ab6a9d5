import path from 'node:path';

export const repoRoot = path.resolve(__dirname, '..', '..', '..');

/** What the usage line of every command starts with, here and in each workspace's CLI. */
export const PROGRAM = 'npm run cli --';

/**
 * Commands owned by a workspace run that workspace's own CLI entry, so each team keeps its commands
 * beside its code and this router imports none of them. Each parses its arguments with commander too.
 */
export const ROUTED_COMMANDS: Record<string, { owner: string; entry: string; summary: string; runsUntilStopped?: readonly string[] }> = {
  seed: { owner: 'apps/api', entry: 'apps/api/dist/cli.js', summary: 'seed demo [--if-empty | --yes] | seed scale --facilities N --rentals M' },
  'api-keys': { owner: 'apps/api', entry: 'apps/api/dist/cli.js', summary: 'api-keys create | list | revoke: API keys of portfolios' },
  import: { owner: 'apps/api', entry: 'apps/api/dist/cli.js', summary: 'import <file> [--dry-run]: load a portfolio from a JSON file, idempotently' },
  replay: {
    owner: 'packages/messaging',
    entry: 'packages/messaging/dist/cli.js',
    summary: 'replay --group <group> --from <ISO time>: a consumer group reads again (running or stopped, embedded or Kafka)',
  },
  webhooks: {
    owner: 'apps/webhook-dispatcher',
    entry: 'apps/webhook-dispatcher/dist/cli.js',
    // Waits for events until Ctrl-C: its silence is not a command at work.
    runsUntilStopped: ['listen'],
    summary: 'webhooks listen --forward-to <url> | resend <message-id> | recover --endpoint <id> --since <ISO time> | trigger <event-type> --portfolio <id>',
  },
  'business-day': {
    owner: 'apps/delinquency-scheduler',
    entry: 'apps/delinquency-scheduler/dist/cli.js',
    summary: 'business-day run --as-of YYYY-MM-DD: one business day now, billing then delinquency',
  },
  delinquency: {
    owner: 'apps/delinquency-scheduler',
    entry: 'apps/delinquency-scheduler/dist/cli.js',
    summary: 'delinquency run --as-of YYYY-MM-DD: the same as business-day run (its first name)',
  },
};

const HELP_FLAGS = new Set(['--help', '-h']);

/**
 * `--help` or `-h` anywhere before `--` asks for the usage of the command named by the words before the first
 * option: those words and `--help` are all that is passed on, so no option value can swallow the flag and nothing runs.
 */
export function helpRequest(args: readonly string[]): string[] | undefined {
  const end = args.indexOf('--');
  if (!args.slice(0, end === -1 ? undefined : end).some((arg) => HELP_FLAGS.has(arg))) return undefined;
  const words = args.findIndex((arg) => arg.startsWith('-'));
  return [...args.slice(0, words), '--help'];
}
