/** pino's numeric levels, as words. */
const LEVELS: Record<number, string> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };

/** Nest's start-up chatter (one line per module and per route): left out of a terminal, kept in JSON output. */
const BOOT_CHATTER = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory', 'NestApplication', 'NestMicroservice']);

interface LogEntry {
  level: number;
  service?: string;
  time?: number;
  msg?: string;
  context?: string;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
  err?: { message?: string };
}

/**
 * A service's JSON log line as a person reads it in a terminal: time, level, context and message, a request as
 * `GET /path → 200 (3 ms)`. Null for Nest's start-up chatter. Anything that is not a JSON log line is kept as it is.
 */
export function humanLine(line: string): string | null {
  const entry = parseEntry(line);
  if (entry === null) return line;
  if (entry.context !== undefined && BOOT_CHATTER.has(entry.context) && entry.level < 40) return null;
  const time = new Date(entry.time ?? Date.now()).toISOString().slice(11, 19);
  if (entry.req?.method !== undefined && entry.res?.statusCode !== undefined) {
    return `${time} ${entry.req.method} ${entry.req.url ?? ''} → ${entry.res.statusCode} (${entry.responseTime ?? '?'} ms)`;
  }
  const level = (LEVELS[entry.level] ?? String(entry.level)).padEnd(5);
  const context = entry.context === undefined ? '' : `${entry.context}: `;
  const cause = entry.err?.message !== undefined && entry.err.message !== entry.msg ? ` (${entry.err.message})` : '';
  return `${time} ${level} ${context}${entry.msg ?? ''}${cause}`;
}

/** The service a JSON log line names (every service's lines carry `service`), if it is one. */
export const serviceOfLine = (line: string): string | undefined => parseEntry(line)?.service;

function parseEntry(line: string): LogEntry | null {
  if (!line.startsWith('{')) return null;
  try {
    const parsed: unknown = JSON.parse(line);
    return typeof parsed === 'object' && parsed !== null && typeof (parsed as LogEntry).level === 'number' ? (parsed as LogEntry) : null;
  } catch {
    return null;
  }
}
