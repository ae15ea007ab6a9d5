/** What an application process `start` runs is, from its command line. */
export function nameOfProcess(command: string): string {
  if (command.includes('postgres-sentinel')) return 'PostgreSQL sentinel (sh)';
  const app = /apps\/([\w-]+)\/dist\/main\.js/.exec(command);
  return app ? app[1] : command;
}
