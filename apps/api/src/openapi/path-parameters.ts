import type { OpenAPIObject, OperationObject, ParameterObject } from '@nestjs/swagger';
import { MAX_PATH_PARAMETER_LENGTH } from '@storage/platform';
import { mapOperations } from './operations';

/** `{portfolio}` is read by the API key guard, not by a handler's `@Param()`, so @nestjs/swagger never sees it. */
const PORTFOLIO: ParameterObject = {
  name: 'portfolio',
  in: 'path',
  required: true,
  description: 'The portfolio (database prefix); one the API key does not reach is answered 404, as an unknown one.',
  // Unreserved URI characters: sent as they are, so the router's segment limit counts them one by one.
  schema: { type: 'string', minLength: 1, maxLength: MAX_PATH_PARAMETER_LENGTH, pattern: '^[A-Za-z0-9._~-]+$' },
  example: 'demo',
};

/** Path parameters named `…Uuid` are all read through `UuidPipe`, which refuses anything but a UUID. */
const isUuidParameter = (parameter: ParameterObject): boolean => parameter.in === 'path' && parameter.name.endsWith('Uuid');

function withPathParameters(path: string, operation: OperationObject): OperationObject {
  const parameters = (operation.parameters ?? []).map((parameter) =>
    'in' in parameter && isUuidParameter(parameter) ? { ...parameter, schema: { type: 'string', format: 'uuid' } } : parameter,
  ) as ParameterObject[];
  const declared = parameters.some((parameter) => parameter.in === 'path' && parameter.name === PORTFOLIO.name);
  return { ...operation, parameters: path.includes('{portfolio}') && !declared ? [PORTFOLIO, ...parameters] : parameters };
}

/** Declares `{portfolio}` on every operation under it, and the UUID path parameters' format. */
export function documentPathParameters(document: OpenAPIObject): OpenAPIObject {
  return mapOperations(document, (operation, path) => withPathParameters(path, operation));
}
