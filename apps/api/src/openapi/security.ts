import type { OpenAPIObject, OperationObject } from '@nestjs/swagger';
import { API_KEY_HEADER } from '../auth/api-key.guard';
import { mapOperations } from './operations';

const SCHEME = 'apiKey';

const takesTheKey = (operation: OperationObject): boolean =>
  (operation.parameters ?? []).some((parameter) => 'in' in parameter && parameter.in === 'header' && parameter.name === API_KEY_HEADER);

/**
 * The API key as a security scheme, which client generators and linters read, beside the `x-api-key` header
 * parameter the published interface lists; each operation names its requirement, and the keyless ones (the
 * lease pages) say they need none rather than leaving it unsaid.
 */
export function documentSecurity(document: OpenAPIObject): OpenAPIObject {
  const { paths } = mapOperations(document, (operation) => ({ ...operation, security: takesTheKey(operation) ? [{ [SCHEME]: [] }] : [] }));
  const securitySchemes = {
    ...document.components?.securitySchemes,
    [SCHEME]: { type: 'apiKey' as const, in: 'header', name: API_KEY_HEADER, description: 'API key (`sk_…`), issued with `npm run cli -- api-keys create`.' },
  };
  return { ...document, paths, components: { ...document.components, securitySchemes } };
}
