import type { Client, Connection } from 'pg';

/** What PostgreSQL says of a statement it has parsed but not run: its parameters' and its columns' types. */
export interface StatementDescription {
  readonly parameterTypes: readonly number[];
  /** The columns it answers, in order; empty for a statement that answers no rows. */
  readonly columns: readonly { readonly name: string; readonly typeOid: number }[];
}

interface PgError extends Error {
  position?: string;
}

type Described = StatementDescription | PgError;

/**
 * Asks PostgreSQL to describe a statement without running it: the extended protocol's Parse (unnamed, parameter types
 * left to PostgreSQL to infer), Describe statement and Sync, which answer ParameterDescription and RowDescription (or
 * NoData). Nothing is executed, so a write describes as safely as a read. Answers pg's error (a misspelt column, an
 * unknown table) instead of throwing. pg's client runs it as a custom query (a "submittable"), so it queues behind
 * others on the connection.
 */
export function describeStatement(client: Client, text: string): Promise<Described> {
  return new Promise((resolve) => {
    // A submittable is handed the connection and the messages pg routes to the active query; query() runs no such thing.
    // eslint-disable-next-line no-restricted-syntax -- a protocol exchange, not SQL run
    void client.query(new DescribeStatement(text, resolve));
  });
}

class DescribeStatement {
  private parameterTypes: readonly number[] = [];
  private columns: StatementDescription['columns'] = [];
  private connection: Connection | undefined;
  private readonly onParameters = (message: { dataTypeIDs: number[] }): void => {
    this.parameterTypes = message.dataTypeIDs;
  };

  constructor(
    private readonly text: string,
    private readonly answer: (described: Described) => void,
  ) {}

  submit(connection: Connection): void {
    this.connection = connection;
    // pg's client does not route ParameterDescription to the active query: it is read from the connection.
    connection.on('parameterDescription', this.onParameters);
    connection.parse({ name: '', text: this.text, types: [] }, false);
    connection.describe({ type: 'S', name: '' }, false);
    connection.sync();
  }

  handleRowDescription(message: { fields: { name: string; dataTypeID: number }[] }): void {
    this.columns = message.fields.map((field) => ({ name: field.name, typeOid: field.dataTypeID }));
  }

  handleError(error: PgError): void {
    this.finish(error);
  }

  handleReadyForQuery(): void {
    this.finish({ parameterTypes: this.parameterTypes, columns: this.columns });
  }

  private finish(described: Described): void {
    this.connection?.removeListener('parameterDescription', this.onParameters);
    this.answer(described);
  }
}
