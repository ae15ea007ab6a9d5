import { Client } from 'pg';
import { locateDatabase, query, sql } from '@storage/persistence';

/** An empty database of its own for one measurement, on the bench's server (`DATABASE_URL`, else the embedded one). */
export interface ScratchDatabase {
  url: string;
  /** Drops the database and lets the server go. */
  drop(): Promise<void>;
}

/** Creates database `name` empty, dropping first what a run before left of it. */
export async function scratchDatabase(name: string): Promise<ScratchDatabase> {
  const database = await locateDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: process.env.DATA_DIR ?? '.data' });
  const admin = new Client({ connectionString: database.url });
  admin.on('error', () => undefined); // its query in flight reports a lost connection
  await admin.connect();
  const dropIt = () => query(admin, sql(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  await dropIt();
  await query(admin, sql(`CREATE DATABASE ${name}`));
  const url = new URL(database.url);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      try {
        await dropIt();
        await admin.end();
      } finally {
        await database.release();
      }
    },
  };
}
