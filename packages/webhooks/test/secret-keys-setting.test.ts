import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { generateSecret } from '../src/signer';
import { GENERATED_SECRET_KEY_FILE, openSecretKeyring, parseSecretKeys, secretKeysSetting } from '../src/secret-keys-setting';
import { webhookSettingsVariables } from '../src/settings';

const KEY_1 = randomBytes(32).toString('base64');
const KEY_2 = randomBytes(32).toString('base64url');
const ENDPOINT = '3f1d2c4b-5a69-4e78-9f01-23456789abcd';

const problemsOf = (text: string) => {
  const parsed = parseSecretKeys(text);
  return 'problems' in parsed ? parsed.problems : [];
};

describe('WEBHOOK_SECRET_KEYS', () => {
  it('reads id:base64key entries in order, separated by commas or white space', () => {
    const parsed = parseSecretKeys(` k-2:${KEY_2},\nk_1:${KEY_1}\n`);
    expect('keys' in parsed && parsed.keys.map((key) => [key.id, key.key.length])).toEqual([
      ['k-2', 32],
      ['k_1', 32],
    ]);
  });

  it('names each bad entry by position, without quoting the key material', () => {
    const short = randomBytes(16).toString('base64');
    const problems = problemsOf(`ok:${KEY_1},short:${short},ok:${KEY_2},${KEY_1},bad.id:${KEY_1},x:not*base64`);
    expect(problems).toEqual([
      { entry: 2, message: 'key "short" must be 32 bytes in base64 (AES-256), got 16 bytes' },
      { entry: 3, message: 'key id "ok" is used twice' },
      { entry: 4, message: 'must be <key id>:<base64 key>, the id 1 to 32 letters, digits, "_" or "-"' },
      { entry: 5, message: 'must be <key id>:<base64 key>, the id 1 to 32 letters, digits, "_" or "-"' },
      { entry: 6, message: 'key "x" must be 32 bytes in base64 (AES-256), got text that is not base64' },
    ]);
    expect(JSON.stringify(problems)).not.toContain(short);
    expect(JSON.stringify(problems)).not.toContain(KEY_1);
    expect(problemsOf(' , ')).toEqual([{ entry: 1, message: 'must name at least one key' }]);
  });

  it('reports problems under WEBHOOK_SECRET_KEYS.<entry> in the shared settings schema', () => {
    const result = z.object(webhookSettingsVariables).safeParse({ WEBHOOK_SECRET_KEYS: `a:${KEY_1},a:${KEY_2}` });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([['WEBHOOK_SECRET_KEYS.2', 'key id "a" is used twice']]);
  });
});

describe('secret keys setting', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'secret-keys-'));
  });
  afterEach(async () => rm(dataDir, { recursive: true, force: true }));

  it('uses the configured keys, and requires them in production', () => {
    const keys = [{ id: 'k1', key: randomBytes(32) }];
    expect(secretKeysSetting('production', keys, dataDir)).toEqual({ setting: { keys } });
    expect(secretKeysSetting('production', undefined, dataDir)).toEqual({ error: 'is required in production' });
    expect(secretKeysSetting('development', undefined, dataDir)).toEqual({ setting: { generatedKeyFile: path.join(dataDir, GENERATED_SECRET_KEY_FILE) } });
  });

  it('generates one key under DATA_DIR (mode 600) on first use and keeps it across restarts', async () => {
    const setting = { generatedKeyFile: path.join(dataDir, 'nested', GENERATED_SECRET_KEY_FILE) };
    const first = await openSecretKeyring(setting);
    expect(first.keyIds).toEqual([expect.stringMatching(/^local-[0-9a-f]{8}$/)]);
    expect((await stat(setting.generatedKeyFile)).mode & 0o777).toBe(0o600);
    const sealed = first.seal(generateSecret(), ENDPOINT);
    const restarted = await openSecretKeyring(setting);
    expect(restarted.keyIds).toEqual(first.keyIds);
    expect(restarted.open(sealed, ENDPOINT)).toBe(first.open(sealed, ENDPOINT));
  });

  it('gives services starting side by side the same generated key', async () => {
    const setting = { generatedKeyFile: path.join(dataDir, GENERATED_SECRET_KEY_FILE) };
    const keyrings = await Promise.all(Array.from({ length: 8 }, () => openSecretKeyring(setting)));
    expect(new Set(keyrings.map((keyring) => keyring.primaryKeyId)).size).toBe(1);
    const sealed = keyrings[0].seal(generateSecret(), ENDPOINT);
    for (const keyring of keyrings) expect(keyring.open(sealed, ENDPOINT)).toBe(keyrings[0].open(sealed, ENDPOINT));
    expect((await readFile(setting.generatedKeyFile, 'utf8')).trim().split('\n')).toHaveLength(1);
  });

  it('refuses a damaged key file, naming it', async () => {
    const file = path.join(dataDir, GENERATED_SECRET_KEY_FILE);
    await writeFile(file, 'local-1:dG9vIHNob3J0\n');
    await expect(openSecretKeyring({ generatedKeyFile: file })).rejects.toThrow(`${file}: key "local-1" must be 32 bytes in base64 (AES-256), got 9 bytes`);
  });
});
