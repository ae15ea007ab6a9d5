import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule } from '@nestjs/swagger';
import { acceptJsonBodies, answerMethodNotAllowed, createValidationPipe, limitJsonDepth, ProblemDetailsFilter, refuseNulCharacters } from '@storage/platform';
import { serveDocsPage } from './openapi/docs-page';
import { buildOpenApiDocument } from './openapi/document';

/** Request bodies are small JSON documents; anything larger is refused with 413. */
export const BODY_LIMIT_BYTES = 256 * 1024;

/**
 * HTTP wiring shared by the service and its tests: 405 for known paths, JSON bodies only (forms where a route takes
 * them), problem+json errors, validation, the OpenAPI document and docs.
 */
export function configureHttp(app: NestFastifyApplication): void {
  answerMethodNotAllowed(app);
  acceptJsonBodies(app);
  limitJsonDepth(app);
  refuseNulCharacters(app);
  app.useGlobalFilters(new ProblemDetailsFilter());
  app.useGlobalPipes(createValidationPipe());
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app), { ui: false, jsonDocumentUrl: 'openapi.json', yamlDocumentUrl: 'openapi.yaml' });
  serveDocsPage(app, '/openapi.json');
}
