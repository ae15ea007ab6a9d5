import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Ownership } from './ownership-table';
import { stringLiterals } from './source-strings';
import { DYNAMIC, findWrites, type SqlWrite } from './sql-writes';

/** A write by a workspace that does not own what it writes. */
export interface Violation {
  /** Repository-relative path. */
  file: string;
  line: number;
  table: string;
  /** Who may make this write (`a or b`); `none` for a table without an owner row, or a name the check cannot read. */
  owner: string;
  /** The workspace that writes. */
  writer: string;
}

/** Trees scanned, relative to the repository root: every workspace's `src` and `test`. */
const WORKSPACE_GROUPS = ['apps', 'packages', 'tools'];
const SCANNED_DIRS = ['src', 'test'];

/**
 * A test's write outside its workspace's tables states why in the statement itself (`-- owner-bypass: <why>`): a
 * deliberate corruption, or a state no owner produces. Only tests may; `git grep owner-bypass` lists them all.
 */
const BYPASS = /--\s*owner-bypass:\s*\S/;

/** Whether a repository-relative file is left out of the scan, and why (docs/ARCHITECTURE.md lists the same). */
export type Exemption = { path: RegExp; why: string };

/** `updated_at` is bumped by whoever writes any column of a row, so it belongs to every column owner. */
const SHARED_COLUMNS = new Set(['updated_at']);

/** Every write in the repository's workspace sources and tests outside its owner (a test's bypass stated, not). */
export function findViolations(root: string, ownership: Ownership, exemptions: readonly Exemption[]): Violation[] {
  return sourceFiles(root)
    .filter((file) => !exemptions.some((e) => e.path.test(file)))
    .flatMap((file) => violationsIn(file, readFileSync(join(root, file), 'utf8'), ownership));
}

/**
 * The violations of one file (`file` repository-relative: its first two segments name the writing workspace, its
 * third whether it is a test, which may state a bypass).
 */
export function violationsIn(file: string, source: string, ownership: Ownership): Violation[] {
  const [group, workspace, dir] = file.split('/');
  const writer = `${group}/${workspace}`;
  const created = createdTables(source);
  const violations: Violation[] = [];
  for (const literal of stringLiterals(file, source)) {
    if (dir === 'test' && BYPASS.test(literal.text)) continue;
    for (const write of findWrites(literal.text, ownership.writingFunctions)) {
      if (created.has(write.table)) continue;
      const { owners, split } = ownersOf(write, ownership);
      if (!split && owners.includes(writer)) continue;
      const line = literal.line + (literal.text.slice(0, write.offset).match(/\n/g)?.length ?? 0);
      const owner = split ? `${owners.join(' and ')}, each of its own columns (split the UPDATE)` : owners.join(' or ') || 'none';
      violations.push({ file, line, table: write.table, owner, writer });
    }
  }
  return violations;
}

/**
 * The workspaces that may make this write (none: a table without an owner, or one the check cannot read). Rows
 * are inserted and deleted by the table's owner; an UPDATE by the owner of every column it sets, the row's owner
 * for the columns no row gives away. `split`: the UPDATE sets columns of several owners, which none may.
 */
function ownersOf(write: SqlWrite, ownership: Ownership): { owners: string[]; split: boolean } {
  const table = write.table === DYNAMIC ? undefined : ownership.tables.get(write.table);
  if (table === undefined) return { owners: [], split: false };
  if (write.kind !== 'UPDATE' || table.columnOwners.size === 0) return { owners: [table.owner], split: false };
  const owners = new Set((write.columns ?? []).filter((c) => !SHARED_COLUMNS.has(c)).map((c) => table.columnOwners.get(c) ?? table.owner));
  // Only `updated_at` (a claim on the row): any owner of a part of it may.
  if (owners.size === 0) return { owners: [table.owner, ...new Set(table.columnOwners.values())], split: false };
  return { owners: [...owners].sort(), split: owners.size > 1 };
}

/** Tables the file creates (`CREATE TEMP TABLE`, a test's own `CREATE TABLE`): nobody else's. */
function createdTables(source: string): Set<string> {
  return new Set([...source.matchAll(/CREATE\s+(?:(?:TEMP|TEMPORARY|UNLOGGED)\s+)?TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?([a-z_][a-z0-9_]*)/g)].map((m) => m[1]));
}

function sourceFiles(root: string): string[] {
  return WORKSPACE_GROUPS.flatMap((group) =>
    subdirectories(join(root, group)).flatMap((workspace) => SCANNED_DIRS.flatMap((dir) => typeScriptFiles(join(root, group, workspace, dir)))),
  )
    .map((path) => relative(root, path))
    .sort();
}

function typeScriptFiles(dir: string): string[] {
  return subentries(dir).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return typeScriptFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

function subdirectories(dir: string): string[] {
  return subentries(dir)
    .filter((e) => e.isDirectory())
    .map((e) => e.name);
}

function subentries(dir: string) {
  return existsSync(dir) ? readdirSync(dir, { withFileTypes: true }) : [];
}
