import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { isSecret } from './signer';

/** One AES-256 key of the keyring and the id stored beside every value it seals. */
export interface SecretKey {
  id: string;
  key: Buffer;
}

export const SECRET_KEY_BYTES = 32;
export const SECRET_KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;

const FORMAT = 'v1';
const CIPHER = 'aes-256-gcm';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/** A stored endpoint secret that cannot be turned back into its `whsec_` value; never signs anything. */
export class StoredSecretUnreadable extends Error {
  constructor(
    readonly keyId: string | null,
    message: string,
  ) {
    super(message);
    this.name = 'StoredSecretUnreadable';
  }
}

/**
 * Seals endpoint secrets for the database with AES-256-GCM: `v1:<key id>:<nonce>:<ciphertext and tag>`
 * (base64url), a fresh nonce per value, bound to its endpoint (additional data) so a value copied to another row
 * is refused. The first key seals; every key opens, so keys can be rotated.
 */
export class SecretKeyring {
  // A private field keeps the key material out of util.inspect and JSON.stringify of the config.
  readonly #keys: ReadonlyMap<string, Buffer>;
  readonly primaryKeyId: string;

  constructor(keys: readonly SecretKey[]) {
    if (keys.length === 0) throw new RangeError('a secret keyring needs at least one key');
    for (const { id, key } of keys) {
      if (!SECRET_KEY_ID.test(id) || key.length !== SECRET_KEY_BYTES) throw new RangeError(`key "${id}" is not a ${SECRET_KEY_BYTES}-byte key with a valid id`);
    }
    this.#keys = new Map(keys.map(({ id, key }) => [id, key]));
    if (this.#keys.size !== keys.length) throw new RangeError('key ids of a secret keyring must differ');
    this.primaryKeyId = keys[0].id;
  }

  get keyIds(): string[] {
    return [...this.#keys.keys()];
  }

  seal(secret: string, endpointId: string): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv(CIPHER, this.#keys.get(this.primaryKeyId)!, nonce).setAAD(additionalData(this.primaryKeyId, endpointId));
    const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return [FORMAT, this.primaryKeyId, nonce.toString('base64url'), sealed.toString('base64url')].join(':');
  }

  /**
   * The `whsec_` secret of a stored value. A bare `whsec_` value (stored before secrets were sealed, or by an api
   * replica not yet upgraded) is returned as it is; the dispatcher seals those at startup.
   */
  open(stored: string, endpointId: string): string {
    if (isSecret(stored)) return stored;
    const [format, keyId, nonceText, sealedText, ...rest] = stored.split(':');
    if (format !== FORMAT || sealedText === undefined || rest.length > 0) {
      throw new StoredSecretUnreadable(null, `the stored secret of endpoint ${endpointId} is neither whsec_… nor ${FORMAT}:<key id>:…`);
    }
    const key = this.#keys.get(keyId);
    if (!key) {
      throw new StoredSecretUnreadable(
        keyId,
        `the secret of endpoint ${endpointId} is sealed with key "${keyId}", which is not in the keyring (${this.keyIds.join(', ')})`,
      );
    }
    const nonce = Buffer.from(nonceText, 'base64url');
    const sealed = Buffer.from(sealedText, 'base64url');
    try {
      if (nonce.length !== NONCE_BYTES || sealed.length <= TAG_BYTES) throw new Error('truncated');
      const decipher = createDecipheriv(CIPHER, key, nonce).setAAD(additionalData(keyId, endpointId));
      decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
      const secret = Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)), decipher.final()]).toString('utf8');
      if (isSecret(secret)) return secret;
    } catch {
      // Reported below without the cause: GCM only says that authentication failed.
    }
    throw new StoredSecretUnreadable(
      keyId,
      `the secret of endpoint ${endpointId} sealed with key "${keyId}" fails authentication: it was altered, copied from another endpoint, or key "${keyId}" is not the key that sealed it`,
    );
  }

  /** Whether a stored value is already sealed with the first key (nothing for the startup step to do). */
  sealsWithPrimary(stored: string): boolean {
    return stored.startsWith(`${FORMAT}:${this.primaryKeyId}:`);
  }
}

const additionalData = (keyId: string, endpointId: string): Buffer => Buffer.from(`${FORMAT}:${keyId}:${endpointId}`, 'utf8');
