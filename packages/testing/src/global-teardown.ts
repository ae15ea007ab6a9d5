/** jest globalTeardown: drops the template and stops the embedded server of the run. */
export default async function globalTeardown(): Promise<void> {
  await globalThis.storageTestServer?.stop();
}
