import { Query, type ClientBase, type Connection, type QueryResult } from 'pg';
import { prepareValue } from 'pg/lib/utils';
import { QueryFailedError, type QueryRunner } from 'typeorm';
import { pgConnection } from './query';
import type { Sql } from './sql';

/** A prepared statement with its values, one step of a transaction sent in one round trip with others. */
export interface Bound<Row> {
  readonly statement: Sql<Row>;
  readonly values: readonly unknown[];
}

export function bind<Row, Values extends readonly unknown[]>(statement: Sql<Row, Values>, values: Values): Bound<Row> {
  return { statement, values };
}

/** A transaction's statements, in order. */
export type Transaction = readonly Bound<unknown>[];

/** Each statement's rows, in the statements' order. */
export type Answers<Steps extends Transaction> = { -readonly [Step in keyof Steps]: Steps[Step] extends Bound<infer Row> ? Row[] : never };

/** pg's record of the statements prepared on a connection (untyped by @types/pg), shared with `query`'s named statements. */
interface PreparedOn {
  parsedStatements: Record<string, string | undefined>;
  submittedNamedStatements: Record<string, string | undefined>;
}

/**
 * Runs one short transaction in one round trip on a connection outside any transaction (a QueryRunner, or a pg client),
 * and answers each statement's rows. pg sends each query with a Sync of its own, so a transaction of two statements
 * would cost four round trips (BEGIN, each statement, COMMIT). Here every statement goes by the extended protocol
 * (Bind, Describe, Execute: its values bound as `query` binds them) and one Sync ends them all: PostgreSQL runs what
 * comes before a Sync as one implicit transaction, each statement with a snapshot of its own, committed at the Sync,
 * or rolled back, the rest skipped, when one fails (the error is thrown as a `QueryFailedError`, as from `query`).
 * A named statement (`prepared`) not yet prepared on the connection is first parsed in a round trip of its own, under
 * pg's own record, as `query` would; an unnamed one is parsed in the round trip, and planned for the values it is
 * sent with.
 */
export async function transactionInOneRoundTrip<const Steps extends Transaction>(connection: QueryRunner | ClientBase, steps: Steps): Promise<Answers<Steps>> {
  const client = (await pgConnection(connection)) as ClientBase;
  for (const { statement } of steps) if (statement.name !== undefined) await prepare(client, statement.name, statement.text);
  const round = new OneSync(steps);
  try {
    const results = await answer(client, round);
    return steps.map((_, index): unknown[] => results[index]?.rows ?? []) as Answers<Steps>;
  } catch (error) {
    throw new QueryFailedError(textOf(steps), undefined, error as Error);
  }
}

const textOf = (steps: Transaction): string => steps.map(({ statement }) => statement.text).join(';\n');

/** Parses the statement unless pg has on this connection (Parse, Sync: a round trip once per connection and statement). */
async function prepare(client: ClientBase, name: string, text: string): Promise<void> {
  const prepared = (client as unknown as { connection: PreparedOn }).connection;
  if (prepared.parsedStatements[name] !== undefined) return;
  // Named and with its text, so pg records it as parsed when PostgreSQL answers ParseComplete (forgets it on an error).
  const parsing = new Query({ name, text });
  parsing.submit = (connection) => {
    connection.parse({ name, text, types: [] }, false);
    prepared.submittedNamedStatements[name] = text;
    connection.sync();
  };
  try {
    await answer(client, parsing);
  } catch (error) {
    throw new QueryFailedError(text, undefined, error as Error);
  }
}

/** The steps' Bind, Describe and Execute (after Parse for an unnamed one), and one Sync; pg's Query gathers a result per statement. */
class OneSync extends Query {
  constructor(steps: Transaction) {
    super({ text: textOf(steps) });
    this.submit = (connection: Connection) => {
      connection.stream.cork();
      try {
        for (const { statement, values } of steps) {
          // The unnamed statement: each Parse replaces the last one.
          if (statement.name === undefined) connection.parse({ name: '', text: statement.text, types: [] }, false);
          connection.bind({ statement: statement.name ?? '', values: values as string[], valueMapper: prepareValue }, false);
          connection.describe({ type: 'P', name: '' }, false);
          connection.execute({ portal: '' }, false);
        }
        connection.sync();
      } finally {
        connection.stream.uncork();
      }
    };
  }
}

/** Submits a query and answers its results, one per statement (pg answers a lone result bare). */
function answer(client: ClientBase, submitted: Query): Promise<QueryResult[]> {
  return new Promise((resolve, reject) => {
    submitted.on('end', (results: QueryResult | QueryResult[]) => resolve(Array.isArray(results) ? results : [results]));
    submitted.on('error', reject);
    client.query(submitted);
  });
}
