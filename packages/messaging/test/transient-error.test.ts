import { KafkaJSConnectionError, KafkaJSError, KafkaJSNonRetriableError, KafkaJSNumberOfRetriesExceeded, KafkaJSProtocolError } from 'kafkajs';
import { Client, DatabaseError } from 'pg';
import { QueryFailedError } from 'typeorm';
import { query, sql } from '@storage/persistence';
import { createTestDatabase, freePort, type TestDatabase } from '@storage/testing';
import { isTransient } from '../src/consumer/transient-error';

const sqlState = (code: string, message = `sqlstate ${code}`): DatabaseError => Object.assign(new DatabaseError(message, 0, 'error'), { code });
const TERMINATE_OWN_SESSION = sql('SELECT pg_terminate_backend(pg_backend_pid())');
const ONE = sql('SELECT 1');
const DIVISION_BY_ZERO = sql('SELECT 1 / 0');
const MISSING_TABLE = sql('SELECT * FROM no_such_table');
const INVALID_UUID = sql("SELECT 'not a uuid'::uuid");

/** A kafkajs protocol error as the client builds it from a broker's error code. */
const protocolError = (type: string, retriable: boolean): KafkaJSProtocolError =>
  new KafkaJSProtocolError({ message: type, type, retriable } as unknown as Error);

describe('isTransient', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
  });

  afterAll(async () => {
    await database?.drop();
  });

  async function failureOf(work: (client: Client) => Promise<unknown>): Promise<unknown> {
    const client = new Client({ connectionString: database.url });
    client.on('error', () => undefined);
    await client.connect();
    try {
      await work(client);
    } catch (error) {
      return error;
    } finally {
      await client.end().catch(() => undefined);
    }
    throw new Error('expected the work to fail');
  }

  it('takes a database that refuses connections, or terminates this one, for an outage', async () => {
    const refused = await new Client({ connectionString: `postgres://nobody@127.0.0.1:${await freePort()}/none` }).connect().catch((error: unknown) => error);
    expect(isTransient(refused)).toBe(true);

    const terminated = await failureOf((client) => query(client, TERMINATE_OWN_SESSION));
    expect((terminated as QueryFailedError<DatabaseError>).driverError.code).toBe('57P01');
    expect(isTransient(terminated)).toBe(true);
    // The same connection afterwards: pg's own message, no code.
    const dead = new Client({ connectionString: database.url });
    dead.on('error', () => undefined);
    await dead.connect();
    await query(dead, TERMINATE_OWN_SESSION).catch(() => undefined);
    expect(isTransient(await query(dead, ONE).catch((error: unknown) => error))).toBe(true);
  });

  it("takes a failing statement for the message's fault", async () => {
    expect(isTransient(await failureOf((client) => query(client, DIVISION_BY_ZERO)))).toBe(false);
    expect(isTransient(await failureOf((client) => query(client, MISSING_TABLE)))).toBe(false);
    expect(isTransient(await failureOf((client) => query(client, INVALID_UUID)))).toBe(false);
  });

  it.each([
    ['57P01', true],
    ['57P02', true],
    ['57P03', true],
    ['53300', true],
    ['53100', true],
    ['53200', true],
    ['40001', true],
    ['40P01', true],
    ['55P03', true],
    ['57014', true],
    ['25006', true],
    ['08006', true],
    ['08001', true],
    ['23505', false],
    ['22P02', false],
    ['42P01', false],
    ['53400', false],
  ])('SQLSTATE %s, as pg reports it or wrapped by TypeORM: transient %s', (code, transient) => {
    expect(isTransient(sqlState(code))).toBe(transient);
    expect(isTransient(new QueryFailedError('SELECT 1', [], sqlState(code)))).toBe(transient);
  });

  it('recognises socket errors, also inside an AggregateError or as a cause', () => {
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT']) {
      expect(isTransient(Object.assign(new Error(`connect ${code}`), { code }))).toBe(true);
    }
    expect(isTransient(Object.assign(new Error('bad path'), { code: 'ENOENT' }))).toBe(false);
    const refused = (): Error => Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    expect(isTransient(new AggregateError([refused(), refused()]))).toBe(true);
    expect(isTransient(new AggregateError([refused(), new Error('invalid payload')]))).toBe(false);
    expect(isTransient(new Error('fan-out failed', { cause: sqlState('57P01') }))).toBe(true);
    expect(isTransient(new Error('fan-out failed', { cause: new Error('invalid payload') }))).toBe(false);
  });

  it('recognises a broker that is away or not settled, not a request it refuses', () => {
    expect(isTransient(new KafkaJSConnectionError('Connection error: connect ECONNREFUSED 127.0.0.1:9092'))).toBe(true);
    expect(isTransient(protocolError('UNKNOWN_TOPIC_OR_PARTITION', true))).toBe(true);
    expect(isTransient(protocolError('LEADER_NOT_AVAILABLE', true))).toBe(true);
    expect(isTransient(new KafkaJSNumberOfRetriesExceeded(new KafkaJSConnectionError('Connection timeout'), { retryCount: 5, retryTime: 5_000 }))).toBe(true);
    expect(isTransient(new KafkaJSError('no leader yet', { retriable: true }))).toBe(true);
    expect(isTransient(protocolError('TOPIC_AUTHORIZATION_FAILED', false))).toBe(false);
    expect(isTransient(protocolError('INVALID_PARTITIONS', false))).toBe(false);
    expect(isTransient(new KafkaJSNonRetriableError('Invalid configEntries'))).toBe(false);
  });

  it("takes anything else for the message's fault", () => {
    expect(isTransient(new Error('cannot apply payment'))).toBe(false);
    expect(isTransient(new TypeError("Cannot read properties of undefined (reading 'uuid')"))).toBe(false);
    expect(isTransient('a string')).toBe(false);
    expect(isTransient(undefined)).toBe(false);
    const cyclic: Error & { cause?: unknown } = new Error('cycle');
    cyclic.cause = cyclic;
    expect(isTransient(cyclic)).toBe(false);
  });
});
