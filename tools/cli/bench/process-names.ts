/** What a Node process started by `start` is, from its command line. */
export function nameOfNodeProcess(command: string): string {
  if (command.includes('postgres-host')) return 'PostgreSQL host';
  const app = /apps\/([\w-]+)\/dist\/main\.js/.exec(command);
  return app ? app[1] : command;
}
