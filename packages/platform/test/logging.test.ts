import { Writable } from 'node:stream';
import pino from 'pino';
import { REDACTED_PATHS } from '../src';

describe('log redaction', () => {
  it('never writes API keys, secrets or signatures', () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk: Buffer, _encoding, done) => { lines.push(chunk.toString()); done(); } });
    const logger = pino({ redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, sink);
    logger.info({
      req: { headers: { 'x-api-key': 'sk_live_123', authorization: 'Bearer abc', 'hook-signature': 'v1,xyz' } },
      endpoint: { secret: 'whsec_abc', signature: 'v1,sig' },
    }, 'request');
    const line = lines.join('');
    for (const secret of ['sk_live_123', 'Bearer abc', 'v1,xyz', 'whsec_abc', 'v1,sig']) expect(line).not.toContain(secret);
    expect(line).toContain('[redacted]');
  });
});
