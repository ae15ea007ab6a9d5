import { invalidSetting } from './invalid-setting';
import { connectionUrl, isReachable, readEmbeddedInfo, startEmbeddedPostgres } from './embedded-postgres';

export interface DatabaseLocation {
  url: string;
  /** Stops the embedded server when this process started it; a no-op otherwise. */
  release: () => Promise<void>;
  embedded: boolean;
}

/** What pg can connect with: a postgres:// (or postgresql://) URL. */
export const isConnectionUrl = (url: string): boolean => /^postgres(ql)?:\/\/.+/.test(url) && URL.canParse(url);
export const CONNECTION_URL_RULE = 'must be a postgres:// connection URL';

/**
 * Where the database is: `DATABASE_URL` when set (checked), otherwise the embedded server under the data
 * directory, reusing the one already running (started by `npm start`) or starting it for this process, out of reach
 * of the terminal's Ctrl-C (`startEmbeddedPostgres`): the process stops it once its own work is done.
 */
export async function locateDatabase(options: { databaseUrl?: string | undefined; dataDir: string }): Promise<DatabaseLocation> {
  if (options.databaseUrl) {
    // Never quoted: it holds a password. Unchecked, pg reads `notaurl` as a host name and says only ENOTFOUND.
    if (!isConnectionUrl(options.databaseUrl)) throw invalidSetting('DATABASE_URL', CONNECTION_URL_RULE);
    return { url: options.databaseUrl, release: async () => undefined, embedded: false };
  }
  const info = await readEmbeddedInfo(options.dataDir);
  if (info && (await isReachable(connectionUrl(info)))) {
    return { url: connectionUrl(info), release: async () => undefined, embedded: true };
  }
  const server = await startEmbeddedPostgres({ dataDir: options.dataDir });
  return { url: server.url(), release: server.stop, embedded: true };
}
