import type { Client } from 'pg';
import ts from 'typescript';
import { query, sql } from '../../src';
import { describeStatement, type StatementDescription } from './describe-statement';
import type { FoundStatement, Statements } from './find-statements';
import { splitCommands } from './split-commands';

/**
 * A statement and what is wrong with it. `uncheckable` says why it was not compared at all: its text is built at run
 * time, or PostgreSQL refuses it (a table or function the code creates as it runs, or a real mistake).
 */
export interface Checked {
  readonly statement: FoundStatement;
  readonly uncheckable: string | undefined;
  readonly problems: readonly string[];
}

/** A type's name, and its category: A array, B boolean, D date and time, N numeric, S string, U json, uuid… */
interface PgType {
  oid: number;
  name: string;
  category: string;
}

const TYPES = sql<PgType, [number[]]>(
  'SELECT oid::int AS oid, format_type(oid, NULL) AS name, typcategory AS category FROM pg_type WHERE oid = ANY($1::oid[])',
);

/**
 * Describes every statement on one connection, one after the other, and compares each with its types: its `Row`'s
 * properties are the columns PostgreSQL answers (names, and types as node-pg parses them; not nullability, which a
 * description does not tell), and its `Values` tuple has as many elements as PostgreSQL found parameters. A text of
 * several commands is described command by command, and answers no rows.
 */
export async function checkStatements(client: Client, found: Statements): Promise<Checked[]> {
  const described = new Map<string, Description[]>();
  for (const { texts } of found.statements) {
    if (Array.isArray(texts)) for (const text of texts) if (!described.has(text)) described.set(text, await describeCommands(client, text));
  }
  const typeNames = await typesOf(client, [...described.values()].flat());
  return found.statements.map((statement) => {
    const { texts } = statement;
    if (!Array.isArray(texts)) return { statement, uncheckable: `its text is built at run time (${(texts as Error).message})`, problems: [] };
    const descriptions = texts.map((text) => described.get(text) as Description[]);
    const refused = descriptions.flat().find((description) => description instanceof Error);
    if (refused !== undefined) return { statement, uncheckable: `PostgreSQL refuses it: ${refused.message}`, problems: [] };
    const problems = (descriptions as StatementDescription[][]).flatMap((commands, index) => {
      const variant = texts.length > 1 ? ` (variant ${index + 1} of ${texts.length})` : '';
      const compared = commands.length === 1 ? compare(found, statement, commands[0], typeNames) : compareCommands(statement, commands);
      return compared.map((problem) => problem + variant);
    });
    return { statement, uncheckable: undefined, problems };
  });
}

type Description = StatementDescription | Error;

/** A text of several commands (run as one simple query) is described a command at a time. */
async function describeCommands(client: Client, text: string): Promise<Description[]> {
  const commands = splitCommands(text);
  if (commands.length === 1) return [await describeStatement(client, text)];
  const descriptions: Description[] = [];
  for (const command of commands) descriptions.push(await describeStatement(client, command));
  return descriptions;
}

/** Several commands go as a simple query: no bound values, and `query` answers no rows of theirs. */
function compareCommands(statement: FoundStatement, commands: readonly StatementDescription[]): string[] {
  const problems: string[] = [];
  if (statement.row.kind === 'properties')
    problems.push(`runs ${commands.length} commands, whose rows query does not answer, but its Row names ${[...statement.row.properties.keys()].join(', ')}`);
  if (commands.some((command) => command.parameterTypes.length > 0) || (statement.values?.length ?? 0) > 0)
    problems.push(`runs ${commands.length} commands, which take no bound values`);
  return problems;
}

async function typesOf(client: Client, descriptions: readonly Description[]): Promise<Map<number, PgType>> {
  const oids = new Set(
    descriptions.flatMap((description) =>
      description instanceof Error ? [] : [...description.parameterTypes, ...description.columns.map((column) => column.typeOid)],
    ),
  );
  const rows = await query(client, TYPES, [[...oids]]);
  return new Map(rows.map((row) => [row.oid, row]));
}

function compare(found: Statements, statement: FoundStatement, description: StatementDescription, typeNames: ReadonlyMap<number, PgType>): string[] {
  const { checker, parsedValues } = found;
  const problems: string[] = [];
  const { row, values } = statement;
  const names = description.columns.map((column) => column.name);
  const twice = names.filter((name, index) => names.indexOf(name) !== index);
  if (twice.length > 0) problems.push(`answers ${twice.join(', ')} twice: a row keeps only the last`);
  if (row.kind === 'none') {
    // never reads as any type at all; unknown and void say the rows are not read.
    if (row.type === 'never' && names.length > 0) problems.push(`answers ${names.join(', ')} but its Row is never: name them, or unknown if they are not read`);
  } else if (names.length === 0) {
    problems.push(`answers no rows (no RETURNING?) but its Row names ${[...row.properties.keys()].join(', ')}`);
  } else {
    for (const name of names.filter((column) => !row.properties.has(column))) problems.push(`answers ${name}, which its Row lacks`);
    for (const name of [...row.properties.keys()].filter((property) => !names.includes(property))) problems.push(`its Row's ${name} is no column of it`);
    for (const column of description.columns) {
      const claimed = row.properties.get(column.name);
      const parsed = parsedValues.get(column.typeOid) ?? checker.getStringType();
      if (claimed !== undefined && !compatible(checker, claimed, parsed)) {
        const typeName = typeNames.get(column.typeOid)?.name ?? `oid ${column.typeOid}`;
        problems.push(
          `${column.name} is ${typeName}, which node-pg answers as ${checker.typeToString(parsed)}, but its Row says ${checker.typeToString(claimed)}`,
        );
      }
    }
  }
  if (values !== undefined && values.length !== description.parameterTypes.length) {
    problems.push(`its Values has ${values.length} elements, PostgreSQL finds ${description.parameterTypes.length} parameters`);
  } else if (values !== undefined) {
    values.forEach((value, index) => {
      const oid = description.parameterTypes[index];
      const type = typeNames.get(oid) ?? { oid, name: `oid ${oid}`, category: 'X' };
      if (!bindable(found, value, type)) problems.push(`its $${index + 1} is ${type.name}, but its Values give ${checker.typeToString(value)}`);
    });
  }
  return problems;
}

/** The claimed type, null and undefined aside (nullability is not checked), is one of the values node-pg answers. */
function compatible(checker: ts.TypeChecker, claimed: ts.Type, parsed: ts.Type): boolean {
  const nonNull = checker.getNonNullableType(claimed);
  if (nonNull.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown) || parsed.flags & ts.TypeFlags.Unknown) return true;
  return checker.isTypeAssignableTo(nonNull, parsed);
}

const JSON_TYPES = new Set([114, 3802]);
const BYTEA = 17;

/**
 * Whether a value of this type, as pg sends it (text: a Date as a timestamp, an array as an array literal, another
 * object as JSON), is one PostgreSQL reads as the parameter's type. A string goes anywhere (PostgreSQL parses it).
 */
function bindable(found: Statements, value: ts.Type, parameter: PgType): boolean {
  const { checker, parsedValues } = found;
  const nonNull = checker.getNonNullableType(value);
  if (nonNull.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.Never)) return true;
  if (nonNull.isUnion()) return nonNull.types.every((member) => bindable(found, member, parameter));
  const is = (target: ts.Type | undefined) => target !== undefined && checker.isTypeAssignableTo(nonNull, target);
  const json = JSON_TYPES.has(parameter.oid);
  if (is(checker.getStringType())) return true;
  if (is(checker.getNumberType())) return parameter.category === 'N' || json || parameter.category === 'S';
  if (is(checker.getBooleanType())) return parameter.category === 'B' || json || parameter.category === 'S';
  if (is(parsedValues.get(1184))) return parameter.category === 'D' || parameter.category === 'S';
  if (is(parsedValues.get(BYTEA))) return parameter.oid === BYTEA;
  if (checker.isArrayType(nonNull) || checker.isTupleType(nonNull)) return parameter.category === 'A';
  return json;
}
