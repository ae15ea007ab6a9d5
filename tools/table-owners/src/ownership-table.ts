/*
 * The ownership table of docs/ARCHITECTURE.md ("Who writes each table"), read as data: the doc stays the one
 * source, and this is how the check reads it. A row's first cell names its tables in backticks; a name ending in
 * `()` is a database function that writes the row's first table; `table`: `column`, … gives those columns of the
 * table to another owner (column-level ownership). The second cell starts with the owning workspace's path.
 */

/** Who may write a table: the row's owner, and owners of single columns (an UPDATE of only those). */
export interface TableOwnership {
  owner: string;
  columnOwners: ReadonlyMap<string, string>;
}

export interface Ownership {
  tables: ReadonlyMap<string, TableOwnership>;
  /** Writing database functions (`rental_ledger_post`) and the table each writes. */
  writingFunctions: ReadonlyMap<string, string>;
}

const SECTION = '## Who writes each table';
const WORKSPACE = /\b(?:apps|packages|tools)\/[a-z0-9-]+/;
const BACKTICKED = /`([^`]+)`/g;

/** Reads the ownership section of the architecture document; throws naming the line it cannot read. */
export function parseOwnership(markdown: string): Ownership {
  const tables = new Map<string, { owner: string; columnOwners: Map<string, string> }>();
  const writingFunctions = new Map<string, string>();
  const columnRows: { table: string; columns: string[]; owner: string; line: number }[] = [];
  for (const { cells, line } of sectionRows(markdown)) {
    const owner = WORKSPACE.exec(cells[1] ?? '')?.[0];
    if (owner === undefined) throw new Error(`docs/ARCHITECTURE.md:${line}: the Owner cell names no workspace (apps/…, packages/…, tools/…)`);
    const [namesCell, columnsCell] = splitColumns(cells[0]);
    const names = backticked(namesCell);
    const tableNames = names.filter((name) => !name.endsWith('()'));
    if (tableNames.length === 0) throw new Error(`docs/ARCHITECTURE.md:${line}: the Table cell names no table in backticks`);
    if (columnsCell !== undefined) {
      columnRows.push({ table: tableNames[0], columns: backticked(columnsCell), owner, line });
      continue;
    }
    for (const table of tableNames) {
      if (tables.has(table)) throw new Error(`docs/ARCHITECTURE.md:${line}: \`${table}\` has a second owner row`);
      tables.set(table, { owner, columnOwners: new Map() });
    }
    for (const name of names.filter((n) => n.endsWith('()'))) writingFunctions.set(name.slice(0, -2), tableNames[0]);
  }
  for (const { table, columns, owner, line } of columnRows) {
    const ownership = tables.get(table);
    if (ownership === undefined) throw new Error(`docs/ARCHITECTURE.md:${line}: columns of \`${table}\`, which has no owner row`);
    for (const column of columns) ownership.columnOwners.set(column, owner);
  }
  if (tables.size === 0) throw new Error(`docs/ARCHITECTURE.md: no table under "${SECTION}"`);
  return { tables, writingFunctions };
}

/** The body rows of the first table under the section heading, cells trimmed, with their line numbers. */
function sectionRows(markdown: string): { cells: string[]; line: number }[] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => l.trim() === SECTION);
  if (start < 0) throw new Error(`docs/ARCHITECTURE.md has no "${SECTION}" section`);
  const rows: { cells: string[]; line: number }[] = [];
  for (let i = start + 1; i < lines.length && !lines[i].startsWith('## '); i++) {
    const text = lines[i].trim();
    if (!text.startsWith('|')) {
      if (rows.length > 0) break;
      continue;
    }
    rows.push({
      cells: text
        .slice(1, text.endsWith('|') ? -1 : undefined)
        .split('|')
        .map((c) => c.trim()),
      line: i + 1,
    });
  }
  // The header row and the |---| row.
  return rows.slice(2);
}

/** `table`: `a`, `b` → the table part and the columns part; a plain cell has no columns part. */
function splitColumns(cell: string): [string, string | undefined] {
  const match = /^(`[^`]+`)\s*:\s*(.+)$/.exec(cell);
  return match === null ? [cell, undefined] : [match[1], match[2]];
}

function backticked(text: string): string[] {
  return [...text.matchAll(BACKTICKED)].map((m) => m[1].trim());
}
