import { createHash } from 'node:crypto';

/** Carries a statement's row type; never set at run time. */
declare const ROW: unique symbol;

/**
 * A SQL statement and the type of the rows it answers. Its values are always bound (`$1`, `$2`…, cast where the type
 * is not obvious), never spliced into the text. With `prepared`, it runs as a named prepared statement: PostgreSQL
 * parses and plans it once per connection instead of on every call.
 */
export interface Sql<Row, Values extends readonly unknown[] = readonly unknown[]> {
  readonly text: string;
  /** The prepared statement's name: the given name and a hash of the text, so a changed text is a new statement. */
  readonly name: string | undefined;
  readonly [ROW]?: { row: Row; values: Values };
}

/**
 * A typed statement. `prepared` names the hot ones (a few words: `operation_7_units`); the text's hash is appended,
 * because PostgreSQL and pg refuse one name for two texts on a connection.
 */
export function sql<Row = never, Values extends readonly unknown[] = readonly unknown[]>(text: string, options: { prepared?: string } = {}): Sql<Row, Values> {
  if (options.prepared !== undefined && !/^[a-z][a-z0-9_]{0,40}$/.test(options.prepared)) throw new Error(`Not a statement name: ${options.prepared}`);
  const name = options.prepared === undefined ? undefined : `${options.prepared}_${createHash('sha1').update(text).digest('hex').slice(0, 10)}`;
  return { text, name };
}
