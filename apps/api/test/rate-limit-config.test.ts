import { configProblems } from '@storage/testing';
import { loadServiceConfig } from '../src/config';

const problems = (env: NodeJS.ProcessEnv): string[] => configProblems(loadServiceConfig, env);

describe('api rate limit configuration', () => {
  it('has defaults generous for an integrator and strict where codes and personal data are at stake', () => {
    const { rateLimits } = loadServiceConfig({});
    expect(rateLimits.keyRoutes['api-key']).toEqual({ name: 'api-key', intervalMs: 10, burst: 500, block: 50 });
    expect(rateLimits.keyRoutes.verification).toEqual({ name: 'verification', intervalMs: 1_000, burst: 30, block: 3 });
    expect(rateLimits.leasePages).toEqual({ name: 'lease-page', intervalMs: 1_000, burst: 30, block: 3 });
    expect(rateLimits.codesPerPerson).toEqual({ name: 'codes-per-person', intervalMs: 600_000, burst: 6, block: 1 });
    expect(rateLimits.attemptsPerPerson).toEqual({ name: 'attempts-per-person', intervalMs: 180_000, burst: 20, block: 1 });
  });

  it('reserves at most RATE_LIMIT_BLOCK, and at most a tenth of the burst', () => {
    expect(loadServiceConfig({ RATE_LIMIT_BLOCK: '5' }).rateLimits.keyRoutes['api-key'].block).toBe(5);
    expect(loadServiceConfig({ RATE_LIMIT_KEY_BURST: '9' }).rateLimits.keyRoutes['api-key'].block).toBe(1);
  });

  it('names each bad variable', () => {
    expect(problems({ RATE_LIMIT_KEY_BURST: '0', RATE_LIMIT_VERIFICATION_PER_MINUTE: 'many', VERIFICATION_ATTEMPTS_PER_PERSON_PER_HOUR: '1.5' })).toEqual([
      expect.stringMatching(/^RATE_LIMIT_KEY_BURST: /),
      expect.stringMatching(/^RATE_LIMIT_VERIFICATION_PER_MINUTE: /),
      expect.stringMatching(/^VERIFICATION_ATTEMPTS_PER_PERSON_PER_HOUR: /),
    ]);
  });
});
