import { z } from 'zod';
import { commonConfigSchema, ConfigError, loadConfig, portSchema } from '../src';

const schema = commonConfigSchema.extend({ API_PORT: portSchema(3000) });

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig(schema, {});
    expect(config).toMatchObject({ API_PORT: 3000, DATA_DIR: '.data', LOG_LEVEL: 'info', KAFKA_TOPIC_PARTITIONS: 3 });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.KAFKA_BROKERS).toBeUndefined();
  });

  it('listens on the loopback interface unless HOST says otherwise (containers set 0.0.0.0)', () => {
    expect(loadConfig(schema, {}).HOST).toBe('127.0.0.1');
    expect(loadConfig(schema, { HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
    expect(() => loadConfig(schema, { HOST: 'not a host!' })).toThrow(/HOST/);
  });

  it('believes no forwarded address unless TRUST_PROXY names the proxies in front', () => {
    expect(loadConfig(schema, {}).TRUST_PROXY).toBeUndefined();
    expect(loadConfig(schema, { TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(loadConfig(schema, { TRUST_PROXY: '10.0.0.0/8,127.0.0.1' }).TRUST_PROXY).toBe('10.0.0.0/8,127.0.0.1');
    expect(() => loadConfig(schema, { TRUST_PROXY: 'everyone please' })).toThrow(/TRUST_PROXY: must be a number of proxy hops/);
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig(schema, { API_PORT: '', DATABASE_URL: '' })).toMatchObject({ API_PORT: 3000 });
  });

  it('names every variable at fault and its rule, never the value (it may be a secret)', () => {
    let thrown: unknown;
    try {
      loadConfig(schema, { API_PORT: 'abc', DATABASE_URL: 'mysql://app:pa55word@db/x', KAFKA_BROKERS: 'nohostport', LOG_LEVEL: 'loud' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    const message = (thrown as ConfigError).message;
    expect(message).toContain('API_PORT: must be a port number (1-65535)');
    expect(message).not.toContain('abc');
    expect(message).not.toContain('pa55word');
    expect(message).toContain('DATABASE_URL: must be a postgres:// connection URL');
    expect(message).toContain('KAFKA_BROKERS: must be a comma-separated list of host:port');
    expect(message).toContain('LOG_LEVEL');
    expect((thrown as ConfigError).problems).toHaveLength(4);
  });

  it('keeps outbox events 7 days unless told otherwise, 0 meaning forever', () => {
    expect(loadConfig(schema, {}).OUTBOX_RETENTION_DAYS).toBe(7);
    expect(loadConfig(schema, { OUTBOX_RETENTION_DAYS: '0' }).OUTBOX_RETENTION_DAYS).toBe(0);
    expect(loadConfig(schema, { OUTBOX_RETENTION_DAYS: '30' }).OUTBOX_RETENTION_DAYS).toBe(30);
  });

  it.each(['-1', '1.5', 'a week', '3651'])('refuses OUTBOX_RETENTION_DAYS=%s, naming the rule', (value) => {
    expect(() => loadConfig(schema, { OUTBOX_RETENTION_DAYS: value })).toThrow(
      'OUTBOX_RETENTION_DAYS: must be a whole number of days from 0 (keep forever) to 3650',
    );
  });

  it('refuses a postgres URL that cannot be parsed (a port that is no number)', () => {
    expect(() => loadConfig(schema, { DATABASE_URL: 'postgres://app:pa55word@db:port/x' })).toThrow('DATABASE_URL: must be a postgres:// connection URL');
    expect(loadConfig(schema, { DATABASE_URL: 'postgresql://app:pa55word@db:5432/x' }).DATABASE_URL).toBe('postgresql://app:pa55word@db:5432/x');
  });

  it('rejects out-of-range ports', () => {
    expect(() => loadConfig(schema, { API_PORT: '70000' })).toThrow(/API_PORT/);
    expect(() => loadConfig(z.object({ P: portSchema(1) }), { P: '0' })).toThrow(/P: must be a port number/);
  });
});
