import type { ClientBase, QueryResult } from 'pg';
import { prepareValue } from 'pg/lib/utils';
import { QueryFailedError, type QueryRunner } from 'typeorm';
import { pgConnection } from './query';
import type { Sql } from './sql';

/** A prepared statement with its values, one step of a transaction sent in one message with others. */
export interface Bound<Row> {
  readonly statement: Sql<Row>;
  readonly values: readonly unknown[];
}

export function bind<Row, Values extends readonly unknown[]>(statement: Sql<Row, Values>, values: Values): Bound<Row> {
  return { statement, values };
}

/** A transaction's statements; the last one's rows are its answer. */
export type Transaction<Row> = readonly [...Bound<unknown>[], Bound<Row>];

/** The statements each connection has had SQL-prepared, by the name they were prepared under. */
const preparedOn = new WeakMap<ClientBase, Set<string>>();

/**
 * Runs many short transactions in one round trip on one connection (a QueryRunner outside any transaction, or a pg client), each `BEGIN; its statements; COMMIT`, and answers the rows of each
 * transaction's last statement, in order. pg's extended protocol (bound values) sends one statement per round trip, so
 * the message goes by the simple protocol: every statement is prepared with SQL `PREPARE` once per connection (the
 * types of its parameters must follow from its text: cast them) and run with `EXECUTE`, its values written as the
 * literals of what pg would bind (pg's own serialisation, dollar-quoted; the value is never part of the statement).
 * Should a statement fail, PostgreSQL skips the rest of the message: the transactions before it are committed, the
 * failing one is rolled back here and the error thrown (a `QueryFailedError`, as from `query`).
 */
export async function transactionsInOneMessage<Row>(connection: QueryRunner | ClientBase, transactions: readonly Transaction<Row>[]): Promise<Row[][]> {
  if (transactions.length === 0) return [];
  const client = (await pgConnection(connection)) as ClientBase;
  await prepareOnce(client, transactions.flat());
  const text = transactions.map((steps) => ['BEGIN', ...steps.map(execute), 'COMMIT'].join('; ')).join('; ');
  let results: QueryResult[];
  try {
    results = (await client.query(text)) as unknown as QueryResult[];
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw new QueryFailedError(text, undefined, error as Error);
  }
  // Each transaction answers BEGIN, one result per statement, COMMIT.
  let next = 0;
  return transactions.map((steps) => {
    next += 1 + steps.length + 1;
    return (results[next - 2]?.rows ?? []) as Row[];
  });
}

/**
 * SQL-prepared names carry a suffix: pg prepares a named `Sql` run by `query` under its own name, through the
 * protocol, and a connection refuses a name twice.
 */
const sqlPreparedName = (statement: Sql<unknown>): string => {
  if (statement.name === undefined) throw new Error(`Only prepared statements go in one message: ${statement.text.slice(0, 60)}`);
  return `${statement.name}_m`;
};

async function prepareOnce(client: ClientBase, steps: readonly Bound<unknown>[]): Promise<void> {
  const done = preparedOn.get(client) ?? new Set<string>();
  preparedOn.set(client, done);
  const missing = new Map(steps.map(({ statement }) => [sqlPreparedName(statement), statement.text] as const).filter(([name]) => !done.has(name)));
  if (missing.size === 0) return;
  await client.query([...missing].map(([name, text]) => `PREPARE ${name} AS ${text}`).join('; '));
  for (const name of missing.keys()) done.add(name);
}

function execute({ statement, values }: Bound<unknown>): string {
  const name = sqlPreparedName(statement);
  return values.length === 0 ? `EXECUTE ${name}` : `EXECUTE ${name}(${values.map(literal).join(', ')})`;
}

/**
 * A value as a literal: pg's serialisation of it, dollar-quoted under a tag it does not contain, so no character of
 * it needs escaping (pg's escapeLiteral walks the text a character at a time: slow on the run's event envelopes).
 */
function literal(value: unknown): string {
  const serialised = prepareValue(value);
  if (serialised === null) return 'NULL';
  if (typeof serialised !== 'string') throw new Error('A binary value has no literal: bind it with query');
  let tag = '$v$';
  // The first occurrence of the tag must be the closing one, also across the text's end ("…$v" + "$v$").
  for (let n = 0; (serialised + tag).indexOf(tag) !== serialised.length; n++) tag = `$v${n}$`;
  return `${tag}${serialised}${tag}`;
}
