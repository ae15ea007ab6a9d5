/** `--name value` flags and bare `--switch`es of a CLI command line. */
export interface ParsedArgs {
  positional: string[];
  flags: Map<string, string[]>;
}

export function parseArgs(argv: readonly string[]): ParsedArgs {
  const positional: string[] = [];
  const flags = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split('=', 2) as [string, string | undefined];
    const next = argv[i + 1];
    const value = inline ?? (next !== undefined && !next.startsWith('--') ? (i++, next) : 'true');
    flags.set(name, [...(flags.get(name) ?? []), value]);
  }
  return { positional, flags };
}

export function positiveInt(args: ParsedArgs, name: string, fallback?: number): number {
  const given = args.flags.get(name)?.at(-1);
  if (given === undefined) {
    if (fallback !== undefined) return fallback;
    throw new Error(`--${name} <number> is required`);
  }
  const value = Number(given);
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer, got "${given}"`);
  return value;
}
