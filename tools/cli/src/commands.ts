import path from 'node:path';

export const repoRoot = path.resolve(__dirname, '..', '..', '..');

/**
 * Commands owned by a workspace run that workspace's own CLI entry, so each team keeps its commands
 * beside its code and this router imports none of them.
 */
export const ROUTED_COMMANDS: Record<string, { owner: string; entry: string; summary: string }> = {
  seed: { owner: 'apps/api', entry: 'apps/api/dist/cli.js', summary: 'seed demo [--if-empty | --yes] | seed scale --facilities N --rentals M' },
  'api-keys': { owner: 'apps/api', entry: 'apps/api/dist/cli.js', summary: 'api-keys create --portfolio <id> [--scope read|write]' },
  replay: { owner: 'packages/messaging', entry: 'packages/messaging/dist/cli.js', summary: 'replay --group <group> --from <ISO time> [--to <ISO time>] [--redeliver]' },
  delinquency: { owner: 'apps/delinquency-scheduler', entry: 'apps/delinquency-scheduler/dist/cli.js', summary: 'delinquency run --as-of YYYY-MM-DD' },
};

/** The usage of one command (its line first), or of them all. */
export function usageOf(command: string | undefined): string {
  const line = command === 'start' || command === 'db' ? BUILT_IN[command] : command === undefined ? undefined : ROUTED_COMMANDS[command]?.summary;
  return line === undefined ? USAGE : `Usage: npm run cli -- ${line}\n\n${USAGE}`;
}

const BUILT_IN = {
  start: 'start                 run the whole system (embedded PostgreSQL unless DATABASE_URL is set)',
  db: 'db migrate            apply pending migrations',
};

export const USAGE = `Usage: npm run cli -- <command>

  ${BUILT_IN.start}
  ${BUILT_IN.db}
${Object.entries(ROUTED_COMMANDS)
  .map(([, command]) => `  ${command.summary}`)
  .join('\n')}
`;
