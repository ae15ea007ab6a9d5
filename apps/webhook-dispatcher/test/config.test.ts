import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { DEVELOPMENT_PORTAL_TOKEN_SECRET, GENERATED_SECRET_KEY_FILE } from '@storage/webhooks';
import { configProblems } from '@storage/testing';
import { loadServiceConfig } from '../src/config';

const problems = (env: NodeJS.ProcessEnv): string[] => configProblems(loadServiceConfig, env);

describe('dispatcher configuration', () => {
  it('requires PORTAL_TOKEN_SECRET in production and uses the development default elsewhere', () => {
    expect(problems({ NODE_ENV: 'production', WEBHOOK_SECRET_KEYS: `k1:${randomBytes(32).toString('base64')}` })).toEqual([
      'PORTAL_TOKEN_SECRET: is required in production',
    ]);
    expect(loadServiceConfig({}).PORTAL_TOKEN_SECRET).toBe(DEVELOPMENT_PORTAL_TOKEN_SECRET);
    expect(problems({ PORTAL_TOKEN_SECRET: 'short' })[0]).toMatch(/^PORTAL_TOKEN_SECRET: must be at least 32/);
  });

  it('requires WEBHOOK_SECRET_KEYS in production and keeps a generated key under DATA_DIR elsewhere', () => {
    expect(problems({ NODE_ENV: 'production', PORTAL_TOKEN_SECRET: DEVELOPMENT_PORTAL_TOKEN_SECRET })).toEqual([
      'WEBHOOK_SECRET_KEYS: is required in production',
    ]);
    expect(loadServiceConfig({ DATA_DIR: '/srv/data' }).WEBHOOK_SECRET_KEYS).toEqual({ generatedKeyFile: path.join('/srv/data', GENERATED_SECRET_KEY_FILE) });
    const key = randomBytes(32);
    expect(loadServiceConfig({ WEBHOOK_SECRET_KEYS: `k1:${key.toString('base64')}` }).WEBHOOK_SECRET_KEYS).toEqual({ keys: [{ id: 'k1', key }] });
  });

  it('refuses a keyring with a wrong key length or a duplicate id, naming the entry but not the key', () => {
    const good = randomBytes(32).toString('base64');
    const short = randomBytes(24).toString('base64');
    const found = problems({ WEBHOOK_SECRET_KEYS: `k1:${good},k2:${short},k1:${good}` });
    expect(found).toEqual([
      'WEBHOOK_SECRET_KEYS.2: key "k2" must be 32 bytes in base64 (AES-256), got 24 bytes',
      'WEBHOOK_SECRET_KEYS.3: key id "k1" is used twice',
    ]);
    expect(found.join()).not.toContain(short);
  });

  it('takes PORTAL_BASE_URL as an http(s) URL, the local portal by default', () => {
    expect(loadServiceConfig({}).PORTAL_BASE_URL).toBe('http://localhost:3001');
    expect(loadServiceConfig({ PORTAL_BASE_URL: 'https://webhooks.example' }).PORTAL_BASE_URL).toBe('https://webhooks.example');
    expect(problems({ PORTAL_BASE_URL: 'ftp://webhooks.example' })).toEqual(['PORTAL_BASE_URL: must be an http(s) URL']);
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
