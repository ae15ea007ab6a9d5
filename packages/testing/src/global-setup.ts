import { ENV_ADMIN_URL, ENV_TEMPLATE, startTestServer, type TestServer } from './test-server';

declare global {
  var storageTestServer: TestServer | undefined;
}

/** jest globalSetup: one real PostgreSQL for the run, migrated once. */
export default async function globalSetup(): Promise<void> {
  const server = await startTestServer();
  globalThis.storageTestServer = server;
  process.env[ENV_ADMIN_URL] = server.adminUrl;
  process.env[ENV_TEMPLATE] = server.templateDatabase;
}
