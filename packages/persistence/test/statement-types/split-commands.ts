/**
 * The commands of a text run as one simple query (`SET …; SET …`), split at the semicolons outside quotes, quoted
 * names, dollar quotes and comments; empty ones left out. PostgreSQL parses one command at a time for a description.
 */
export function splitCommands(text: string): string[] {
  const commands: string[] = [];
  let start = 0;
  let at = 0;
  while (at < text.length) {
    const end = endOfQuoted(text, at);
    if (end !== undefined) {
      at = end;
    } else if (text[at] === ';') {
      commands.push(text.slice(start, at));
      start = at += 1;
    } else {
      at += 1;
    }
  }
  commands.push(text.slice(start));
  return commands.map((command) => command.trim()).filter((command) => command !== '');
}

/** Where a quoted part starting at `at` ends (after it), or undefined if none starts there. */
function endOfQuoted(text: string, at: number): number | undefined {
  const rest = text.slice(at);
  const closing = rest.startsWith("'")
    ? "'"
    : rest.startsWith('"')
      ? '"'
      : rest.startsWith('--')
        ? '\n'
        : rest.startsWith('/*')
          ? '*/'
          : /^\$\w*\$/.exec(rest)?.[0];
  if (closing === undefined) return undefined;
  const close = text.indexOf(closing, at + (closing === '*/' || closing === '\n' ? 2 : closing.length));
  return close === -1 ? text.length : close + closing.length;
}
