import path from 'node:path';
import ts from 'typescript';
import { foldText, Unfoldable } from './fold-text';

export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..', '..');
const SQL_MODULE = path.join(REPO_ROOT, 'packages', 'persistence', 'src', 'sql.ts');
const PARSED_VALUES_MODULE = path.join(__dirname, 'parsed-values.ts');

/** What a statement's `Row` type says: nothing (never, unknown, void, any), or its named properties. */
export type RowClaim = { readonly kind: 'none'; readonly type: string } | { readonly kind: 'properties'; readonly properties: ReadonlyMap<string, ts.Type> };

/** One `sql<Row, Values>(text)` call: where it is, what its types claim, and the texts it can run. */
export interface FoundStatement {
  /** `path:line`, the path from the repository root. */
  readonly at: string;
  /** The call's first argument as written, whitespace collapsed: how the list of unfoldable statements names it. */
  readonly source: string;
  readonly row: RowClaim;
  /** The `Values` tuple's element types, or undefined when the statement gives no tuple of a fixed length. */
  readonly values: readonly ts.Type[] | undefined;
  readonly texts: readonly string[] | Unfoldable;
}

export interface Statements {
  readonly checker: ts.TypeChecker;
  readonly statements: readonly FoundStatement[];
  /** `ParsedValues`' types by oid: what node-pg answers for a column of that type. */
  readonly parsedValues: ReadonlyMap<number, ts.Type>;
}

/**
 * Every call of persistence's `sql` in the given files, found by the type checker (the callee resolves to
 * `packages/persistence/src/sql.ts`, whatever it is imported as), with its `Row` and `Values` as the checker resolves
 * them: explicit, inferred from where the statement goes, named interfaces and imported types alike.
 */
export function findStatements(files: readonly string[]): Statements {
  const program = ts.createProgram([...files, PARSED_VALUES_MODULE], compilerOptions());
  const checker = program.getTypeChecker();
  const roots = new Set(files.map((file) => path.resolve(file)));
  const statements: FoundStatement[] = [];
  for (const sourceFile of program.getSourceFiles()) {
    if (!roots.has(path.resolve(sourceFile.fileName))) continue;
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && isSqlCall(checker, node)) statements.push(statementOf(checker, sourceFile, node));
      ts.forEachChild(node, visit);
    };
    visit(sourceFile);
  }
  return { checker, statements, parsedValues: parsedValues(checker, program) };
}

function parsedValues(checker: ts.TypeChecker, program: ts.Program): Map<number, ts.Type> {
  const module = checker.getSymbolAtLocation(program.getSourceFile(PARSED_VALUES_MODULE) as ts.SourceFile);
  const parsed = checker.getExportsOfModule(module as ts.Symbol).find((symbol) => symbol.name === 'ParsedValues');
  if (parsed === undefined) throw new Error(`No ParsedValues in ${PARSED_VALUES_MODULE}`);
  return new Map(
    checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(parsed)).map((property) => [Number(property.name), checker.getTypeOfSymbol(property)] as const),
  );
}

/** The repository's compiler options, with `@storage/*` read from each package's sources rather than its build. */
function compilerOptions(): ts.CompilerOptions {
  const { config } = ts.readConfigFile(path.join(REPO_ROOT, 'tsconfig.base.json'), (file) => ts.sys.readFile(file));
  const { options } = ts.convertCompilerOptionsFromJson((config as { compilerOptions: unknown }).compilerOptions, REPO_ROOT);
  return { ...options, noEmit: true, incremental: false, baseUrl: REPO_ROOT, paths: { '@storage/*': ['packages/*/src'] } };
}

function isSqlCall(checker: ts.TypeChecker, call: ts.CallExpression): boolean {
  const symbol = checker.getSymbolAtLocation(call.expression);
  const target = symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const declaration = target?.valueDeclaration;
  return (
    declaration !== undefined &&
    ts.isFunctionDeclaration(declaration) &&
    declaration.name?.text === 'sql' &&
    path.resolve(declaration.getSourceFile().fileName) === SQL_MODULE
  );
}

function statementOf(checker: ts.TypeChecker, sourceFile: ts.SourceFile, call: ts.CallExpression): FoundStatement {
  const { line } = sourceFile.getLineAndCharacterOfPosition(call.getStart());
  const [textArgument] = call.arguments;
  // The call's type is Sql<Row, Values>, its arguments as the checker inferred them.
  const [row, values] = checker.getTypeArguments(checker.getTypeAtLocation(call) as ts.TypeReference);
  return {
    at: `${path.relative(REPO_ROOT, sourceFile.fileName)}:${line + 1}`,
    source: textArgument.getText().replace(/\s+/g, ' '),
    row: rowClaim(checker, row, call),
    values: tupleElements(checker, values),
    texts: texts(checker, textArgument),
  };
}

function texts(checker: ts.TypeChecker, argument: ts.Expression): readonly string[] | Unfoldable {
  try {
    return foldText(checker, argument);
  } catch (error) {
    if (error instanceof Unfoldable) return error;
    throw error;
  }
}

const CLAIMS_NOTHING = ts.TypeFlags.Never | ts.TypeFlags.Unknown | ts.TypeFlags.Void | ts.TypeFlags.Any;

function rowClaim(checker: ts.TypeChecker, row: ts.Type, at: ts.Node): RowClaim {
  if (row.flags & CLAIMS_NOTHING) return { kind: 'none', type: checker.typeToString(row) };
  const properties = checker.getPropertiesOfType(row).map((property) => [property.name, checker.getTypeOfSymbolAtLocation(property, at)] as const);
  return { kind: 'properties', properties: new Map(properties) };
}

function tupleElements(checker: ts.TypeChecker, values: ts.Type): readonly ts.Type[] | undefined {
  if (!checker.isTupleType(values)) return undefined;
  const tuple = (values as ts.TypeReference).target as ts.TupleType;
  return tuple.hasRestElement || tuple.minLength !== tuple.fixedLength ? undefined : checker.getTypeArguments(values as ts.TypeReference);
}
