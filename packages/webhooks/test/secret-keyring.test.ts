import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { SecretKeyring, StoredSecretUnreadable } from '../src/secret-keyring';
import { generateSecret } from '../src/signer';

const ENDPOINT = '3f1d2c4b-5a69-4e78-9f01-23456789abcd';
const OTHER_ENDPOINT = '00000000-0000-4000-8000-000000000001';
const keyA = { id: 'key-a', key: randomBytes(32) };
const keyB = { id: 'key-b', key: randomBytes(32) };

/** The error `open` throws, for checks of its class, key id and message. */
function openError(keyring: SecretKeyring, stored: string, endpointId = ENDPOINT): StoredSecretUnreadable {
  try {
    keyring.open(stored, endpointId);
  } catch (error) {
    return error as StoredSecretUnreadable;
  }
  throw new Error('the stored value opened');
}

/** Flips one bit of a base64url part of a sealed value. */
function flipBit(sealed: string, part: 2 | 3, byte = 0): string {
  const parts = sealed.split(':');
  const bytes = Buffer.from(parts[part], 'base64url');
  bytes[byte] ^= 1;
  parts[part] = bytes.toString('base64url');
  return parts.join(':');
}

describe('secret keyring', () => {
  const keyring = new SecretKeyring([keyA]);

  it('seals a secret as v1:<key id>:<nonce>:<ciphertext> that opens to the same secret, never containing it', () => {
    const secret = generateSecret();
    const sealed = keyring.seal(secret, ENDPOINT);
    expect(sealed).toMatch(/^v1:key-a:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain(secret.slice('whsec_'.length, 20));
    expect(keyring.open(sealed, ENDPOINT)).toBe(secret);
  });

  it('uses a fresh nonce for every value', () => {
    const secret = generateSecret();
    const sealed = Array.from({ length: 50 }, () => keyring.seal(secret, ENDPOINT));
    expect(new Set(sealed.map((value) => value.split(':')[2])).size).toBe(50);
    expect(new Set(sealed).size).toBe(50);
  });

  it('refuses a tampered nonce, ciphertext or tag, naming the key, rather than returning a wrong secret', () => {
    const sealed = keyring.seal(generateSecret(), ENDPOINT);
    const ciphertextBytes = Buffer.from(sealed.split(':')[3], 'base64url').length;
    for (const tampered of [flipBit(sealed, 2), flipBit(sealed, 3), flipBit(sealed, 3, ciphertextBytes - 1), sealed.slice(0, -4)]) {
      const error = openError(keyring, tampered);
      expect(error).toBeInstanceOf(StoredSecretUnreadable);
      expect(error.keyId).toBe('key-a');
      expect(error.message).toMatch(/sealed with key "key-a" fails authentication/);
    }
  });

  it('refuses a value copied to another endpoint', () => {
    const sealed = keyring.seal(generateSecret(), ENDPOINT);
    expect(openError(keyring, sealed, OTHER_ENDPOINT).message).toContain(`endpoint ${OTHER_ENDPOINT} sealed with key "key-a" fails authentication`);
  });

  it('refuses a value relabelled with another key id of the keyring', () => {
    const both = new SecretKeyring([keyA, keyB]);
    const relabelled = both.seal(generateSecret(), ENDPOINT).replace('v1:key-a:', 'v1:key-b:');
    expect(openError(both, relabelled).message).toContain('sealed with key "key-b" fails authentication');
  });

  it('names an unknown key id and the keys it holds', () => {
    const sealedWithB = new SecretKeyring([keyB]).seal(generateSecret(), ENDPOINT);
    const error = openError(keyring, sealedWithB);
    expect(error.keyId).toBe('key-b');
    expect(error.message).toBe(`the secret of endpoint ${ENDPOINT} is sealed with key "key-b", which is not in the keyring (key-a)`);
  });

  it('rotates: a new first key seals, the old one still opens what it sealed', () => {
    const secret = generateSecret();
    const sealedBefore = keyring.seal(secret, ENDPOINT);
    const rotated = new SecretKeyring([keyB, keyA]);
    expect(rotated.open(sealedBefore, ENDPOINT)).toBe(secret);
    const sealedAfter = rotated.seal(secret, ENDPOINT);
    expect(sealedAfter.startsWith('v1:key-b:')).toBe(true);
    expect(rotated.sealsWithPrimary(sealedAfter)).toBe(true);
    expect(rotated.sealsWithPrimary(sealedBefore)).toBe(false);
    expect(openError(keyring, sealedAfter).keyId).toBe('key-b');
  });

  it('returns a bare whsec_ value stored before sealing as it is, and refuses anything else', () => {
    const legacy = generateSecret();
    expect(keyring.open(legacy, ENDPOINT)).toBe(legacy);
    expect(keyring.sealsWithPrimary(legacy)).toBe(false);
    for (const junk of ['', 'whsec_', 'v2:key-a:abc:def', 'v1:key-a:abc', 'v1:key-a:a:b:c', 'plain text']) {
      expect(openError(keyring, junk)).toBeInstanceOf(StoredSecretUnreadable);
    }
  });

  it('keeps its key material out of inspection and JSON', () => {
    const shown = inspect(keyring, { depth: 10, showHidden: true }) + JSON.stringify({ keyring });
    expect(shown).not.toContain(keyA.key.toString('base64'));
    expect(shown).not.toContain(keyA.key.toString('hex'));
    expect(shown).toContain('key-a');
  });

  it('refuses an empty keyring, a key that is not 32 bytes, or an id used twice', () => {
    expect(() => new SecretKeyring([])).toThrow(RangeError);
    expect(() => new SecretKeyring([{ id: 'short', key: randomBytes(16) }])).toThrow(/"short" is not a 32-byte key/);
    expect(() => new SecretKeyring([keyA, { ...keyB, id: 'key-a' }])).toThrow(/must differ/);
  });
});
