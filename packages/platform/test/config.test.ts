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

  it('treats empty variables as unset', () => {
    expect(loadConfig(schema, { API_PORT: '', DATABASE_URL: '' })).toMatchObject({ API_PORT: 3000 });
  });

  it('names every variable at fault, with what it got', () => {
    let thrown: unknown;
    try {
      loadConfig(schema, { API_PORT: 'abc', DATABASE_URL: 'mysql://x', KAFKA_BROKERS: 'nohostport', LOG_LEVEL: 'loud' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    const message = (thrown as ConfigError).message;
    expect(message).toContain('API_PORT: must be a port number (1-65535) (got "abc")');
    expect(message).toContain('DATABASE_URL: must be a postgres:// connection URL');
    expect(message).toContain('KAFKA_BROKERS: must be a comma-separated list of host:port');
    expect(message).toContain('LOG_LEVEL');
    expect((thrown as ConfigError).problems).toHaveLength(4);
  });

  it('rejects out-of-range ports', () => {
    expect(() => loadConfig(schema, { API_PORT: '70000' })).toThrow(/API_PORT/);
    expect(() => loadConfig(z.object({ P: portSchema(1) }), { P: '0' })).toThrow(/P: must be a port number/);
  });
});
