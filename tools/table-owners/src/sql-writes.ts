/*
 * Finding the writes in a piece of SQL text. SQL here is written with upper-case keywords and lower-case names,
 * which is what tells `UPDATE rental_records SET` from a sentence or `FOR NO KEY UPDATE`. A name the text does not
 * hold (a `${…}` substitution) is reported as DYNAMIC, for the check to refuse unless it is exempted.
 */

export type WriteKind = 'INSERT' | 'UPDATE' | 'DELETE' | 'TRUNCATE' | 'MERGE' | 'COPY' | 'FUNCTION';

export interface SqlWrite {
  kind: WriteKind;
  table: string;
  /** The columns an UPDATE sets (for column-level owners); absent for row writes. */
  columns?: string[];
  /** Offset of the write in the text. */
  offset: number;
}

/** The table of a write whose name is a substitution. */
export const DYNAMIC = '${…}';

const NAME = String.raw`(?:"?public"?\.)?("?[a-z_][a-z0-9_]*"?|\$\{…\})`;
// Or nothing: a literal ending at INSERT INTO (DELETE FROM, MERGE INTO) has its table concatenated to it. Not
// UPDATE, which also ends lock clauses (`FOR UPDATE`).
const NAME_OR_END = NAME.replace(/\)$/, '|$)');
const STATEMENTS: { kind: WriteKind; pattern: RegExp }[] = [
  { kind: 'INSERT', pattern: new RegExp(String.raw`\bINSERT\s+INTO\s+${NAME_OR_END}`, 'g') },
  { kind: 'UPDATE', pattern: new RegExp(String.raw`\bUPDATE\s+(?:ONLY\s+)?${NAME}`, 'g') },
  { kind: 'DELETE', pattern: new RegExp(String.raw`\bDELETE\s+FROM\s+(?:ONLY\s+)?${NAME_OR_END}`, 'g') },
  { kind: 'MERGE', pattern: new RegExp(String.raw`\bMERGE\s+INTO\s+(?:ONLY\s+)?${NAME_OR_END}`, 'g') },
  { kind: 'COPY', pattern: new RegExp(String.raw`\bCOPY\s+${NAME}(?:\s*\([^)]*\))?\s+FROM\b`, 'g') },
];
// The names TRUNCATE lists, lower case, up to its first option (RESTART, CASCADE…).
const TRUNCATE = /\bTRUNCATE\s+(?:TABLE\s+)?(?:ONLY\s+)?([a-z0-9_",.\s${}…]+)/g;
const FUNCTION_CALL = /\b([a-z_][a-z0-9_]*)\s*\(/g;

/** Every write in `sql`; `writingFunctions` maps a writing database function to the table it writes. */
export function findWrites(sql: string, writingFunctions: ReadonlyMap<string, string>): SqlWrite[] {
  const writes: SqlWrite[] = [];
  for (const { kind, pattern } of STATEMENTS) {
    for (const match of sql.matchAll(pattern)) {
      const table = match[1] === '' ? DYNAMIC : unquote(match[1]);
      const offset = match.index;
      writes.push(kind === 'UPDATE' ? { kind, table, columns: updatedColumns(sql, offset + match[0].length), offset } : { kind, table, offset });
    }
  }
  for (const match of sql.matchAll(TRUNCATE)) {
    const names = match[1]
      .split(',')
      .map((name) => unquote(name.trim().replace(/^"?public"?\./, '')))
      .filter((name) => name !== '');
    for (const table of names) writes.push({ kind: 'TRUNCATE', table, offset: match.index });
  }
  for (const match of sql.matchAll(FUNCTION_CALL)) {
    const table = writingFunctions.get(match[1]);
    if (table !== undefined) writes.push({ kind: 'FUNCTION', table, offset: match.index });
  }
  return writes.sort((a, b) => a.offset - b.offset);
}

/** The columns of `[alias] SET a = …, (b, c) = …` up to the clause's end (WHERE, FROM, RETURNING, a closing bracket). */
function updatedColumns(sql: string, from: number): string[] {
  const set = /^\s*(?:(?:AS\s+)?[a-z_][a-z0-9_]*\s+)?SET\b/.exec(sql.slice(from));
  if (set === null) return [];
  const columns: string[] = [];
  let depth = 0;
  let assignment = '';
  const flush = () => {
    const target = assignment.split('=')[0];
    columns.push(...[...target.matchAll(/[a-z_][a-z0-9_]*/g)].map((m) => m[0]));
    assignment = '';
  };
  for (let i = from + set[0].length; i < sql.length; i++) {
    const char = sql[i];
    if (char === "'") {
      const end = sql.indexOf("'", i + 1);
      i = end < 0 ? sql.length : end;
      assignment += "''";
      continue;
    }
    if (char === '(') depth++;
    if (char === ')' && --depth < 0) break;
    if (depth === 0 && /^\s(?:WHERE|FROM|RETURNING)\b/.test(sql.slice(i, i + 11))) break;
    if (depth === 0 && char === ',') flush();
    else assignment += char;
  }
  flush();
  return columns;
}

function unquote(name: string): string {
  return name.replace(/"/g, '');
}
