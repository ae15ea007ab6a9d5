import ts from 'typescript';

/** Why a statement's text is not known before run time: the expression that stops folding, and what it is. */
export class Unfoldable extends Error {}

/** The most texts one statement may fold to (each conditional doubles them) before it is called unfoldable. */
const MOST_VARIANTS = 16;

/** A parameter of a function being folded, bound to its argument where the call is. */
interface Binding {
  readonly argument: ts.Expression | undefined;
  readonly scope: Scope;
}
type Scope = ReadonlyMap<ts.Symbol, Binding>;

/**
 * Every text a statement's first argument can be, folded from the source: literals and templates, `+` (of numbers
 * too), constants (imported too), `OBJECT.key`, `[…].join(…)` and `.indexOf(…)` (of `Object.keys` too), both branches
 * of a conditional, every item a loop variable takes from a constant array, and calls of functions whose body is one
 * returned expression, their parameters bound to the call's arguments. Anything else (a value only known at run time) throws `Unfoldable` naming the expression.
 */
export function foldText(checker: ts.TypeChecker, expression: ts.Expression): string[] {
  return fold(checker, expression, new Map());
}

function fold(checker: ts.TypeChecker, node: ts.Expression, scope: Scope): string[] {
  if (ts.isStringLiteralLike(node) || ts.isNumericLiteral(node)) return [node.text];
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node) || ts.isNonNullExpression(node)) {
    return fold(checker, node.expression, scope);
  }
  if (ts.isTemplateExpression(node)) {
    return node.templateSpans.reduce(
      (texts, span) => combine(combine(texts, fold(checker, span.expression, scope), node), [span.literal.text], node),
      [node.head.text],
    );
  }
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const sum =
      isNumber(checker, node.left) && isNumber(checker, node.right) ? (left: string, right: string) => String(Number(left) + Number(right)) : undefined;
    return combine(fold(checker, node.left, scope), fold(checker, node.right, scope), node, sum);
  }
  // Both branches are statements the code may run, whatever the condition is at run time.
  if (ts.isConditionalExpression(node)) return variants([...fold(checker, node.whenTrue, scope), ...fold(checker, node.whenFalse, scope)], node);
  if (ts.isIdentifier(node)) return foldIdentifier(checker, node, scope);
  if (ts.isCallExpression(node)) return foldCall(checker, node, scope);
  if (ts.isPropertyAccessExpression(node)) return foldProperty(checker, node, node.expression, [node.name.text], scope);
  if (ts.isElementAccessExpression(node)) return foldProperty(checker, node, node.expression, fold(checker, node.argumentExpression, scope), scope);
  throw unfoldable(node, 'an expression known at run time');
}

function foldIdentifier(checker: ts.TypeChecker, node: ts.Identifier, scope: Scope): string[] {
  const symbol = resolve(checker, checker.getSymbolAtLocation(node));
  const binding = symbol && scope.get(symbol);
  if (binding) {
    if (binding.argument === undefined) throw unfoldable(node, 'a parameter the call leaves out');
    return fold(checker, binding.argument, binding.scope);
  }
  const initializer = constantInitializer(symbol);
  if (initializer !== undefined) return fold(checker, initializer, scope);
  const taken = symbol?.valueDeclaration && loopItems(checker, symbol.valueDeclaration);
  if (taken === undefined) throw unfoldable(node, 'not a constant');
  return variants(
    taken.flatMap((item) => fold(checker, item, scope)),
    node,
  );
}

/**
 * What a loop variable takes, `x` of `for (const x of LIST)` or of `for (const [x, …] of LIST)`, when LIST is a
 * constant array literal (of array literals): each item, or each item's element at x's place.
 */
function loopItems(checker: ts.TypeChecker, declaration: ts.Declaration): ts.Expression[] | undefined {
  const place = ts.isBindingElement(declaration) && ts.isArrayBindingPattern(declaration.parent) ? declaration.parent.elements.indexOf(declaration) : undefined;
  const variable = place === undefined ? declaration : declaration.parent.parent;
  const loop = ts.isVariableDeclaration(variable) && ts.isVariableDeclarationList(variable.parent) ? variable.parent.parent : undefined;
  if (loop === undefined || !ts.isForOfStatement(loop)) return undefined;
  const items = arrayLiteral(checker, loop.expression)?.elements;
  const taken = items?.map((item) => (place === undefined ? item : ts.isArrayLiteralExpression(item) ? item.elements[place] : undefined));
  const isItem = (item: ts.Expression | undefined): item is ts.Expression => item !== undefined && !ts.isSpreadElement(item) && !ts.isOmittedExpression(item);
  return taken?.every(isItem) ? taken.filter(isItem) : undefined;
}

function arrayLiteral(checker: ts.TypeChecker, node: ts.Expression): ts.ArrayLiteralExpression | undefined {
  const initializer = ts.isIdentifier(node) ? constantInitializer(resolve(checker, checker.getSymbolAtLocation(node))) : node;
  const bare = initializer && (ts.isAsExpression(initializer) || ts.isSatisfiesExpression(initializer)) ? initializer.expression : initializer;
  return bare && ts.isArrayLiteralExpression(bare) && !bare.elements.some(ts.isSpreadElement) ? bare : undefined;
}

function foldCall(checker: ts.TypeChecker, node: ts.CallExpression, scope: Scope): string[] {
  const callee = node.expression;
  if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'join') return foldJoin(checker, node, callee.expression, scope);
  if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'indexOf') return foldIndexOf(checker, node, callee.expression, scope);
  const declaration = functionDeclaration(resolve(checker, checker.getSymbolAtLocation(callee)));
  if (declaration === undefined) throw unfoldable(node, 'a call of a function not folded');
  const returned = onlyReturned(declaration);
  if (returned === undefined) throw unfoldable(node, 'a call of a function whose body is more than one returned expression');
  const bound = new Map(scope);
  declaration.parameters.forEach((parameter, index) => {
    const parameterSymbol = checker.getSymbolAtLocation(parameter.name);
    if (parameterSymbol === undefined) return;
    const argument = node.arguments[index];
    bound.set(parameterSymbol, argument ? { argument, scope } : { argument: parameter.initializer, scope: bound });
  });
  return fold(checker, returned, bound);
}

function foldJoin(checker: ts.TypeChecker, call: ts.CallExpression, target: ts.Expression, scope: Scope): string[] {
  const separators = call.arguments[0] === undefined ? [','] : fold(checker, call.arguments[0], scope);
  return variants(
    foldList(checker, target, scope).flatMap((list) => separators.map((separator) => list.join(separator))),
    call,
  );
}

/** `LIST.indexOf(x)` of a constant list: where each text of x is in it. */
function foldIndexOf(checker: ts.TypeChecker, call: ts.CallExpression, target: ts.Expression, scope: Scope): string[] {
  if (call.arguments.length !== 1) throw unfoldable(call, 'an indexOf from a position');
  const searched = fold(checker, call.arguments[0], scope);
  return variants(
    foldList(checker, target, scope).flatMap((list) => searched.map((text) => String(list.indexOf(text)))),
    call,
  );
}

/** Every list of texts a constant array can be: an array literal, or `Object.keys` of a constant object. */
function foldList(checker: ts.TypeChecker, node: ts.Expression, scope: Scope): string[][] {
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node)) return foldList(checker, node.expression, scope);
  if (ts.isIdentifier(node)) {
    const initializer = constantInitializer(resolve(checker, checker.getSymbolAtLocation(node)));
    if (initializer !== undefined) return foldList(checker, initializer, scope);
  }
  if (ts.isArrayLiteralExpression(node) && !node.elements.some(ts.isSpreadElement)) {
    return node.elements.reduce<string[][]>((lists, element) => lists.flatMap((list) => fold(checker, element, scope).map((text) => [...list, text])), [[]]);
  }
  if (ts.isCallExpression(node) && isObjectKeys(node.expression) && node.arguments.length === 1) {
    const keys = constantObject(checker, node.arguments[0], node).properties.map((property) => property.name && propertyName(property.name));
    if (keys.some((key) => key === undefined)) throw unfoldable(node, 'keys of an object with computed or spread ones');
    return [keys as string[]];
  }
  throw unfoldable(node, 'not a constant array');
}

/** `OBJECT.key` or `OBJECT[key]` of a constant object literal, for each key the key folds to. */
function foldProperty(checker: ts.TypeChecker, node: ts.Expression, target: ts.Expression, keys: readonly string[], scope: Scope): string[] {
  const object = constantObject(checker, target, node);
  const values = keys.map((key) => {
    const property = object.properties.find((candidate) => ts.isPropertyAssignment(candidate) && propertyName(candidate.name) === key);
    if (property === undefined || !ts.isPropertyAssignment(property)) throw unfoldable(node, `no property ${key} in the constant object`);
    return property.initializer;
  });
  return variants(
    values.flatMap((value) => fold(checker, value, scope)),
    node,
  );
}

function constantObject(checker: ts.TypeChecker, target: ts.Expression, node: ts.Expression): ts.ObjectLiteralExpression {
  const initializer = ts.isIdentifier(target) ? constantInitializer(resolve(checker, checker.getSymbolAtLocation(target))) : undefined;
  const object = initializer && (ts.isAsExpression(initializer) || ts.isSatisfiesExpression(initializer)) ? initializer.expression : initializer;
  if (object === undefined || !ts.isObjectLiteralExpression(object)) throw unfoldable(node, 'a property of something other than a constant object');
  return object;
}

function propertyName(name: ts.PropertyName): string | undefined {
  return ts.isIdentifier(name) || ts.isStringLiteralLike(name) || ts.isNumericLiteral(name) ? name.text : undefined;
}

/** The symbol an import or re-export stands for. */
function resolve(checker: ts.TypeChecker, symbol: ts.Symbol | undefined): ts.Symbol | undefined {
  return symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
}

function constantInitializer(symbol: ts.Symbol | undefined): ts.Expression | undefined {
  const declaration = symbol?.valueDeclaration;
  if (declaration === undefined || !ts.isVariableDeclaration(declaration)) return undefined;
  const isConst = ts.getCombinedNodeFlags(declaration) & ts.NodeFlags.Const;
  return isConst ? declaration.initializer : undefined;
}

type FunctionLike = ts.FunctionDeclaration | ts.ArrowFunction | ts.FunctionExpression;

function functionDeclaration(symbol: ts.Symbol | undefined): FunctionLike | undefined {
  const declaration = symbol?.valueDeclaration;
  if (declaration !== undefined && ts.isFunctionDeclaration(declaration)) return declaration;
  const initializer = constantInitializer(symbol);
  return initializer && (ts.isArrowFunction(initializer) || ts.isFunctionExpression(initializer)) ? initializer : undefined;
}

/** The one expression a function answers: an arrow's expression body, or a body of constants and one `return`. */
function onlyReturned(declaration: FunctionLike): ts.Expression | undefined {
  const body = declaration.body;
  if (body === undefined) return undefined;
  if (!ts.isBlock(body)) return body;
  const [last, ...before] = [...body.statements].reverse();
  const constantsOnly = before.every((statement) => ts.isVariableStatement(statement) && statement.declarationList.flags & ts.NodeFlags.Const);
  return last !== undefined && ts.isReturnStatement(last) && constantsOnly ? last.expression : undefined;
}

function combine(left: readonly string[], right: readonly string[], node: ts.Node, add = (head: string, tail: string) => head + tail): string[] {
  return variants(
    left.flatMap((head) => right.map((tail) => add(head, tail))),
    node,
  );
}

const isObjectKeys = (callee: ts.Expression): boolean =>
  ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && callee.expression.text === 'Object' && callee.name.text === 'keys';

const isNumber = (checker: ts.TypeChecker, node: ts.Expression): boolean => (checker.getTypeAtLocation(node).flags & ts.TypeFlags.NumberLike) !== 0;

function variants(texts: string[], node: ts.Node): string[] {
  const distinct = [...new Set(texts)];
  if (distinct.length > MOST_VARIANTS) throw unfoldable(node, `more than ${MOST_VARIANTS} variants`);
  return distinct;
}

function unfoldable(node: ts.Node, why: string): Unfoldable {
  const source = node.getText().replace(/\s+/g, ' ');
  return new Unfoldable(`${source.length > 60 ? `${source.slice(0, 57)}...` : source}: ${why}`);
}
