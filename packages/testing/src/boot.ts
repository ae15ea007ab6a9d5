import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { randomBytes } from 'node:crypto';

/** Boots a service entry point with exactly the given environment (and PATH); it is expected to stop at once. */
export function bootWith(main: string, env: Record<string, string>): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [main], { env: { PATH: process.env.PATH, ...env }, encoding: 'utf8', timeout: 20_000 });
}

/** A value no message could contain by chance, to check that a secret is never printed. */
export function secretValue(): string {
  return `s3cret-${randomBytes(6).toString('hex')}`;
}

/**
 * Boots a service entry point with bad variables and asserts it refuses to start, naming each bad variable and
 * its rule but not the password of the database URL: what an operator sees after a deployment with a typo.
 */
export function expectBootRefused(main: string, portVariable: string): void {
  const password = secretValue();
  const result = bootWith(main, { [portVariable]: 'not-a-port', DATABASE_URL: `postgres//storage:${password}@db.internal/storage`, LOG_LEVEL: 'loud' });
  expect(result.status).toBe(1);
  expect(result.stderr).toContain('Invalid configuration');
  expect(result.stderr).toContain(`${portVariable}: must be a port number (1-65535)`);
  expect(result.stderr).toContain('DATABASE_URL: must be a postgres:// connection URL');
  expect(result.stderr).toContain('LOG_LEVEL');
  expect(result.stderr + result.stdout).not.toContain(password);
}

/** The problems a config loader reports for `env` (none when it loads): each `VARIABLE: rule` line. */
export function configProblems(load: (env: NodeJS.ProcessEnv) => unknown, env: NodeJS.ProcessEnv): string[] {
  try {
    load(env);
    return [];
  } catch (error) {
    if (error instanceof Error && 'problems' in error && Array.isArray(error.problems)) return error.problems.map(String);
    throw error;
  }
}
