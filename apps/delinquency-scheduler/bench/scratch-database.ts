import { Client } from 'pg';
import { locateDatabase, query, sql } from '@storage/persistence';

/** An empty database of its own for one measurement, on the bench's server (`DATABASE_URL`, else the embedded one). */
export interface ScratchDatabase {
  url: string;
  /** Drops the database and lets the server go. */
  drop(): Promise<void>;
  /** Keeps the database (a template for later runs) and lets the server go. */
  keep(): Promise<void>;
}

/** Creates database `name` empty, or as a copy of `template`, dropping first what a run before left of it. */
export async function scratchDatabase(name: string, options: { template?: string } = {}): Promise<ScratchDatabase> {
  const database = await locateDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: process.env.DATA_DIR ?? '.data' });
  const admin = new Client({ connectionString: database.url });
  admin.on('error', () => undefined); // its query in flight reports a lost connection
  await admin.connect();
  const dropIt = () => query(admin, sql(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  await dropIt();
  await query(admin, sql(`CREATE DATABASE ${name}${options.template === undefined ? '' : ` TEMPLATE ${options.template}`}`));
  const url = new URL(database.url);
  url.pathname = `/${name}`;
  const keep = async () => {
    try {
      await admin.end();
    } finally {
      await database.release();
    }
  };
  return {
    url: url.toString(),
    drop: async () => {
      try {
        await dropIt();
      } finally {
        await keep();
      }
    },
    keep,
  };
}

/** Whether database `name` exists on the bench's server. */
export async function databaseExists(name: string): Promise<boolean> {
  const database = await locateDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: process.env.DATA_DIR ?? '.data' });
  const client = new Client({ connectionString: database.url });
  try {
    await client.connect();
    return (await query(client, sql<{ found: boolean }>('SELECT true AS found FROM pg_database WHERE datname = $1'), [name])).length > 0;
  } finally {
    await client.end();
    await database.release();
  }
}
