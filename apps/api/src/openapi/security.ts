import type { OpenAPIObject } from '@nestjs/swagger';
import { API_KEY_HEADER, API_KEY_SCHEME } from '../auth';
import { mapOperations } from './operations';

/**
 * The API key as a security scheme, which client generators, linters and Swagger UI read. `@ApiKeyAuth()` names
 * the requirement on the operations that take the key; the keyless ones (the lease pages) say they need none
 * rather than leaving it unsaid, as the document declares no global requirement.
 */
export function documentSecurity(document: OpenAPIObject): OpenAPIObject {
  const { paths } = mapOperations(document, (operation) => ({ ...operation, security: operation.security ?? [] }));
  const securitySchemes = {
    ...document.components?.securitySchemes,
    [API_KEY_SCHEME]: {
      type: 'apiKey' as const,
      in: 'header',
      name: API_KEY_HEADER,
      description: 'API key (`sk_…`), issued with `npm run cli -- api-keys create`.',
    },
  };
  return { ...document, paths, components: { ...document.components, securitySchemes } };
}
