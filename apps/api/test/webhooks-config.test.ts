import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { GENERATED_SECRET_KEY_FILE } from '@storage/webhooks';
import { configProblems } from '@storage/testing';
import { loadServiceConfig } from '../src/config';

const problems = (env: NodeJS.ProcessEnv): string[] => configProblems(loadServiceConfig, env);

describe('api webhook configuration', () => {
  it('requires WEBHOOK_SECRET_KEYS in production, beside PORTAL_TOKEN_SECRET', () => {
    expect(problems({ NODE_ENV: 'production' })).toEqual(['PORTAL_TOKEN_SECRET: is required in production', 'WEBHOOK_SECRET_KEYS: is required in production']);
  });

  it('keeps a generated key under DATA_DIR elsewhere, and takes configured keys in order', () => {
    expect(loadServiceConfig({ DATA_DIR: '/var/lib/storage' }).webhooks.secretKeys).toEqual({
      generatedKeyFile: path.join('/var/lib/storage', GENERATED_SECRET_KEY_FILE),
    });
    const [first, second] = [randomBytes(32), randomBytes(32)];
    const { secretKeys } = loadServiceConfig({ WEBHOOK_SECRET_KEYS: `new:${first.toString('base64')},old:${second.toString('base64')}` }).webhooks;
    expect(secretKeys).toEqual({
      keys: [
        { id: 'new', key: first },
        { id: 'old', key: second },
      ],
    });
  });

  it('refuses a bad keyring entry by entry, without echoing the keys', () => {
    const short = randomBytes(31).toString('base64');
    const good = randomBytes(32).toString('base64');
    const found = problems({ WEBHOOK_SECRET_KEYS: `a:${good},a:${good},b:${short}` });
    expect(found).toEqual([
      'WEBHOOK_SECRET_KEYS.2: key id "a" is used twice',
      'WEBHOOK_SECRET_KEYS.3: key "b" must be 32 bytes in base64 (AES-256), got 31 bytes',
    ]);
    expect(found.join('\n')).not.toContain(good);
  });
});
