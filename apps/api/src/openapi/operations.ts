import type { OpenAPIObject, OperationObject } from '@nestjs/swagger';

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** The document with each operation replaced by what `change` makes of it; paths' other fields as they were. */
export function mapOperations(document: OpenAPIObject, change: (operation: OperationObject, path: string, method: string) => OperationObject): OpenAPIObject {
  const paths = Object.fromEntries(
    Object.entries(document.paths).map(([path, item]) => [
      path,
      Object.fromEntries(Object.entries(item).map(([key, value]) => [key, METHODS.has(key) ? change(value as OperationObject, path, key) : value])),
    ]),
  );
  return { ...document, paths };
}
