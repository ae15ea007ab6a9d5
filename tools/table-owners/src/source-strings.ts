import ts from 'typescript';

/*
 * The SQL of a TypeScript file is in its string and template literals; reading only those (through the compiler's
 * parser) keeps comments and code out of the scan. A template's substitutions read as `${…}`.
 */

export interface SourceString {
  text: string;
  /** 1-based line of the literal's first character. */
  line: number;
}

export function stringLiterals(fileName: string, source: string): SourceString[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: SourceString[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) found.push({ text: node.text, line: lineOf(file, node) });
    else if (ts.isTemplateExpression(node)) found.push({ text: templateText(node), line: lineOf(file, node) });
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

function templateText(template: ts.TemplateExpression): string {
  return template.head.text + template.templateSpans.map((span) => '${…}' + span.literal.text).join('');
}

function lineOf(file: ts.SourceFile, node: ts.Node): number {
  return file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
}
