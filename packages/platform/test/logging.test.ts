import { Writable } from 'node:stream';
import pino from 'pino';
import { REDACTED_PATHS, redactUrl } from '../src';

describe('log redaction', () => {
  it('never writes API keys, secrets or signatures', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write: (chunk: Buffer, _encoding, done) => {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = pino({ redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, sink);
    logger.info(
      {
        req: { headers: { 'x-api-key': 'sk_live_123', authorization: 'Bearer abc', 'hook-signature': 'v1,xyz' } },
        endpoint: { secret: 'whsec_abc', signature: 'v1,sig' },
      },
      'request',
    );
    const line = lines.join('');
    for (const secret of ['sk_live_123', 'Bearer abc', 'v1,xyz', 'whsec_abc', 'v1,sig']) expect(line).not.toContain(secret);
    expect(line).toContain('[redacted]');
  });
});

describe('request URLs in the access log', () => {
  it('hides credentials carried in the query (portal login) and in the path (lease signing links)', () => {
    const token = 'FcyYU11zuLfKxsnREVuQSgnVOIeIyd6gmZOdMRguXRA';
    expect(redactUrl(`/portal/login?token=${token}`)).toBe('/portal/login?token=[redacted]');
    expect(redactUrl(`/leases/sign/${token}`)).toBe('/leases/sign/[redacted]');
    expect(redactUrl(`/leases/sign/${token}?x=1`)).toBe('/leases/sign/[redacted]?x=1');
    expect(redactUrl('/api/demo/portfolios/v1/facilities')).toBe('/api/demo/portfolios/v1/facilities');
  });
});
