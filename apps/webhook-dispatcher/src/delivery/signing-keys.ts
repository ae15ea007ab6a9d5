import { signingKey, type SecretKeyring } from '@storage/webhooks';

/** Endpoints whose keys are kept; past it the cache starts over (a full clear is cheaper than tracking use). */
const MAX_KEPT = 10_000;

/**
 * The HMAC keys of endpoint secrets, opened once per stored value rather than per delivery (AES-GCM and a
 * decipher per attempt were a tenth of the dispatcher's CPU per delivery). Keyed by the stored value itself, so a
 * rotated or resealed secret is opened afresh and a removed one is never used again. The process holds the keyring,
 * which opens every secret, so keeping opened ones adds no exposure. A value that cannot be opened is not kept: it
 * fails every attempt, as before.
 */
export class SigningKeys {
  private readonly opened = new Map<string, Buffer>();

  constructor(private readonly keyring: SecretKeyring) {}

  /** The signing key of `stored`, the sealed (or bare) secret of `endpointId`; throws StoredSecretUnreadable. */
  of(stored: string, endpointId: string): Buffer {
    const id = `${endpointId}\n${stored}`;
    let key = this.opened.get(id);
    if (!key) {
      key = signingKey(this.keyring.open(stored, endpointId));
      if (this.opened.size >= MAX_KEPT) this.opened.clear();
      this.opened.set(id, key);
    }
    return key;
  }
}
