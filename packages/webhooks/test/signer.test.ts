import { Webhook } from 'standardwebhooks';
import { generateSecret, signatureEntry, signatureHeader, signedHeaders, signingKey } from '../src/signer';

describe('signer', () => {
  it('matches the known answer of ARCHITECTURE.md', () => {
    const key = signingKey('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
    expect(signatureEntry(key, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}')).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('makes secrets of whsec_ and 24 random bytes', () => {
    const secret = generateSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(signingKey(secret)).toHaveLength(24);
    expect(generateSecret()).not.toBe(secret);
  });

  it('refuses a secret without the prefix', () => {
    expect(() => signingKey('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')).toThrow(/whsec_/);
  });

  it('signs with every live secret during a rotation, each verifying alone', () => {
    const [oldSecret, newSecret] = [generateSecret(), generateSecret()];
    const body = '{"data":[{"event":"moved-in"}]}';
    const timestamp = Math.floor(Date.now() / 1000);
    const header = signatureHeader([signingKey(newSecret), signingKey(oldSecret)], 'msg_1', timestamp, body);
    expect(header.split(' ')).toHaveLength(2);
    const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': String(timestamp), 'webhook-signature': header };
    for (const secret of [oldSecret, newSecret]) expect(new Webhook(secret).verify(body, headers)).toEqual({ data: [{ event: 'moved-in' }] });
  });

  it('gives the hook-* headers the standardwebhooks library verifies once renamed', () => {
    const secret = generateSecret();
    const body = '{"data":[]}';
    const headers = signedHeaders([signingKey(secret)], 'msg_2', Math.floor(Date.now() / 1000), body);
    const renamed = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.replace(/^hook-/, 'webhook-'), value]));
    expect(() => new Webhook(secret).verify(body, renamed)).not.toThrow();
    expect(() => new Webhook(generateSecret()).verify(body, renamed)).toThrow();
  });
});
