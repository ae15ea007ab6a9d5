import { ConfigError } from '@storage/platform';
import { DEVELOPMENT_PORTAL_TOKEN_SECRET } from '@storage/webhooks';
import { loadServiceConfig } from '../src/config';

const problems = (env: NodeJS.ProcessEnv): string[] => {
  try {
    loadServiceConfig(env);
    return [];
  } catch (error) {
    return (error as ConfigError).problems;
  }
};

describe('dispatcher configuration', () => {
  it('requires PORTAL_TOKEN_SECRET in production and uses the development default elsewhere', () => {
    expect(problems({ NODE_ENV: 'production' })).toEqual(['PORTAL_TOKEN_SECRET: is required in production']);
    expect(loadServiceConfig({}).PORTAL_TOKEN_SECRET).toBe(DEVELOPMENT_PORTAL_TOKEN_SECRET);
    expect(problems({ PORTAL_TOKEN_SECRET: 'short' })[0]).toMatch(/^PORTAL_TOKEN_SECRET: must be at least 32/);
  });

  it('parses WEBHOOK_ALLOWED_SUBNETS (empty by default) and names a bad entry', () => {
    expect(loadServiceConfig({}).WEBHOOK_ALLOWED_SUBNETS).toEqual([]);
    expect(loadServiceConfig({ WEBHOOK_ALLOWED_SUBNETS: '127.0.0.1/32,::1/128' }).WEBHOOK_ALLOWED_SUBNETS).toHaveLength(2);
    expect(problems({ WEBHOOK_ALLOWED_SUBNETS: '127.0.0.1/32,nope' })[0]).toMatch(/^WEBHOOK_ALLOWED_SUBNETS: "nope" is not a CIDR/);
  });

  it('consumes as group webhook-dispatcher unless DISPATCHER_CONSUMER_GROUP names another', () => {
    expect(loadServiceConfig({}).DISPATCHER_CONSUMER_GROUP).toBe('webhook-dispatcher');
    expect(loadServiceConfig({ DISPATCHER_CONSUMER_GROUP: 'e2e-1234' }).DISPATCHER_CONSUMER_GROUP).toBe('e2e-1234');
    expect(problems({ DISPATCHER_CONSUMER_GROUP: 'bad group' })[0]).toMatch(/^DISPATCHER_CONSUMER_GROUP: /);
  });
});
