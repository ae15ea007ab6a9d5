import { spawnSync } from 'node:child_process';

/**
 * Boots a service entry point with exactly the given environment and asserts it refuses to start,
 * naming each bad variable: what an operator sees after a deployment with a typo.
 */
export function expectBootRefused(main: string, portVariable: string): void {
  const result = spawnSync(process.execPath, [main], {
    env: { PATH: process.env.PATH, [portVariable]: 'not-a-port', DATABASE_URL: 'mysql://wrong', LOG_LEVEL: 'loud' },
    encoding: 'utf8',
    timeout: 20_000,
  });
  expect(result.status).toBe(1);
  expect(result.stderr).toContain('Invalid configuration');
  expect(result.stderr).toContain(`${portVariable}: must be a port number (1-65535) (got "not-a-port")`);
  expect(result.stderr).toContain('DATABASE_URL: must be a postgres:// connection URL');
  expect(result.stderr).toContain('LOG_LEVEL');
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
