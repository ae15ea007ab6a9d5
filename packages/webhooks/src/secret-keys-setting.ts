import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SECRET_KEY_BYTES, SECRET_KEY_ID, SecretKeyring, type SecretKey } from './secret-keyring';

/** Where a service without `WEBHOOK_SECRET_KEYS` keeps the key it generated, under its DATA_DIR. */
export const GENERATED_SECRET_KEY_FILE = 'webhook-secret-keys';

/** A problem with one entry (1-based) of a keyring setting; never quotes the key material. */
export interface SecretKeysProblem {
  entry: number;
  message: string;
}

/** The keys configured (`WEBHOOK_SECRET_KEYS`), or the file of the key generated for a development data directory. */
export type SecretKeysSetting = { keys: readonly SecretKey[] } | { generatedKeyFile: string };

const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/**
 * Parses `id:base64key` entries separated by commas or white space, in order (the first seals). Each key is
 * 32 random bytes in base64, e.g. from `openssl rand -base64 32`.
 */
export function parseSecretKeys(text: string): { keys: SecretKey[] } | { problems: SecretKeysProblem[] } {
  const keys: SecretKey[] = [];
  const problems: SecretKeysProblem[] = [];
  const entries = text.split(/[\s,]+/).filter((entry) => entry !== '');
  entries.forEach((entry, index) => {
    const parsed = parseEntry(entry, keys);
    if (typeof parsed === 'string') problems.push({ entry: index + 1, message: parsed });
    else keys.push(parsed);
  });
  if (keys.length === 0 && problems.length === 0) problems.push({ entry: 1, message: 'must name at least one key' });
  return problems.length > 0 ? { problems } : { keys };
}

/** The key of one entry, or what is wrong with it. */
function parseEntry(entry: string, known: readonly SecretKey[]): SecretKey | string {
  const separator = entry.indexOf(':');
  const id = entry.slice(0, separator);
  const keyText = entry.slice(separator + 1);
  if (separator < 0 || !SECRET_KEY_ID.test(id)) return 'must be <key id>:<base64 key>, the id 1 to 32 letters, digits, "_" or "-"';
  const key = Buffer.from(keyText, 'base64');
  if (!BASE64.test(keyText)) return `key "${id}" must be ${SECRET_KEY_BYTES} bytes in base64 (AES-256), got text that is not base64`;
  if (key.length !== SECRET_KEY_BYTES) return `key "${id}" must be ${SECRET_KEY_BYTES} bytes in base64 (AES-256), got ${key.length} bytes`;
  if (known.some((other) => other.id === id)) return `key id "${id}" is used twice`;
  return { id, key };
}

/**
 * The rule both services share, as for PORTAL_TOKEN_SECRET: configured keys when given; required in production;
 * elsewhere a key generated once and kept in DATA_DIR, which the api and the dispatcher share under `npm start`.
 */
export function secretKeysSetting(
  nodeEnv: string,
  configured: readonly SecretKey[] | undefined,
  dataDir: string,
): { setting: SecretKeysSetting } | { error: string } {
  if (configured) return { setting: { keys: configured } };
  if (nodeEnv === 'production') return { error: 'is required in production' };
  return { setting: { generatedKeyFile: path.resolve(dataDir, GENERATED_SECRET_KEY_FILE) } };
}

/** The keyring of a setting, generating the development key file on first use. */
export async function openSecretKeyring(setting: SecretKeysSetting): Promise<SecretKeyring> {
  if ('keys' in setting) return new SecretKeyring(setting.keys);
  const file = setting.generatedKeyFile;
  const parsed = parseSecretKeys(
    await readOrCreate(file, () => `local-${randomBytes(4).toString('hex')}:${randomBytes(SECRET_KEY_BYTES).toString('base64')}\n`),
  );
  if ('problems' in parsed)
    throw new Error(`${file}: ${parsed.problems.map((problem) => problem.message).join('; ')} (delete it to generate a new key, or set WEBHOOK_SECRET_KEYS)`);
  return new SecretKeyring(parsed.keys);
}

/** Services starting side by side must end up with the same key: the first link wins, the others read it. */
async function readOrCreate(file: string, content: () => string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(path.dirname(file), { recursive: true });
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await writeFile(draft, content(), { mode: 0o600 });
  try {
    await link(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await unlink(draft);
  }
  return readFile(file, 'utf8');
}
