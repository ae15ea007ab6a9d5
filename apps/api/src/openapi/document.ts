import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { SERVICE_VERSION } from '../service-info';
import { ProblemDetailsSchema } from './problem-details.schema';
import { documentAtLeastOneField } from './at-least-one-field';
import { documentPathParameters } from './path-parameters';
import { documentProblems } from './problem-responses';
import { documentRequestStrings } from './request-strings';
import { documentSecurity } from './security';
import { documentWebhooks } from './webhooks';

const DESCRIPTION = `Self-storage rental: the shopping flow, portfolio operations and webhook subscriptions.

Every operation but the lease pages takes the \`x-api-key\` header; \`x-api-key-scope\` names the scope it needs
(\`read\`; \`write\`, which includes read; or \`admin\`, which includes write on every portfolio and alone
creates portfolios). A request body may be sent compressed, with \`Content-Encoding\` \`gzip\`, \`deflate\` or \`br\`
(the body limit counts the decoded bytes); another coding is 415. Failures are RFC 9457
\`application/problem+json\` (schema \`ProblemDetails\`: \`type\`, \`title\`, \`status\`, \`detail\`, and \`errors\` naming
each field at fault); the lease pages answer theirs as HTML pages for the tenant's browser.
Operations tagged **Extensions** go beyond the published interface.

The \`webhooks\` section describes what the platform POSTs to a subscription's \`targetUrl\` (operations 15 to 19): one
entry per event type, its body schema generated from the event schemas the platform validates with, the signature
headers and how to verify them, and how the answer is taken (2xx delivered; anything else, or no answer, retried).`;

/** The OpenAPI 3.1 document of the application's routes, built from the decorators. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Storage Rental Service API')
    .setDescription(DESCRIPTION)
    .setVersion(SERVICE_VERSION)
    .setOpenAPIVersion('3.1.0')
    .addServer('/', 'This deployment')
    .build();
  // The operator's own service, not open source: named, as linters and API catalogues expect a license to be.
  const info = { ...config.info, license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' } };
  const document = SwaggerModule.createDocument(
    app,
    { ...config, info },
    {
      operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}_${method}`,
      // Operations carry the spec's area tags; a tag per controller class would only repeat them.
      autoTagControllers: false,
      extraModels: [ProblemDetailsSchema],
    },
  );
  const documented = documentSecurity(documentRequestStrings(documentAtLeastOneField(documentProblems(documentPathParameters(document)))));
  return toOpenApi31(documentWebhooks(documented));
}

/**
 * @nestjs/swagger writes 3.0 `nullable: true`; OpenAPI 3.1 (JSON Schema 2020-12) spells it as a type
 * union with "null" instead, so the document validates as the version it declares.
 */
export function toOpenApi31<T>(node: T): T {
  if (Array.isArray(node)) return node.map((item: unknown) => toOpenApi31(item)) as T;
  if (typeof node !== 'object' || node === null) return node;
  const { nullable, ...rest } = node as Record<string, unknown>;
  const converted = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, toOpenApi31(value)]));
  if (nullable !== true) return converted as T;
  // A nullable reference: swagger writes `type` and `allOf: [$ref]`, which `null` could never satisfy.
  const { allOf, $ref, type, ...annotations } = converted;
  if (Array.isArray(allOf)) return { ...annotations, oneOf: [...(allOf as unknown[]), { type: 'null' }] } as T;
  if (typeof $ref === 'string') return { ...annotations, oneOf: [{ $ref }, { type: 'null' }] } as T;
  // An enum holds every value allowed, whatever the type says: a nullable one lists null too.
  if (Array.isArray(annotations.enum) && !annotations.enum.includes(null)) annotations.enum = [...(annotations.enum as unknown[]), null];
  if (typeof type === 'string') return { ...annotations, type: [type, 'null'] } as T;
  return converted as T;
}
