/**
 * Writes apps/api/openapi.json from the code: `npm run openapi -w @storage/api`.
 * Nest's preview mode builds the module graph without creating providers, so no database is needed.
 */
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { OpenAPIObject } from '@nestjs/swagger';
import { AppModule } from '../app.module';
import { loadServiceConfig } from '../config';
import { buildOpenApiDocument } from './document';

export const OPENAPI_FILE = path.join(__dirname, '..', '..', 'openapi.json');

export async function generateOpenApiDocument(): Promise<OpenAPIObject> {
  const config = loadServiceConfig({ LOG_LEVEL: 'silent' });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, { url: 'postgres://unused/preview' }), new FastifyAdapter(), {
    preview: true,
    logger: false,
  });
  try {
    return buildOpenApiDocument(app);
  } finally {
    await app.close();
  }
}

export const serializeOpenApi = (document: OpenAPIObject): string => `${JSON.stringify(document, null, 2)}\n`;

if (require.main === module) {
  generateOpenApiDocument()
    .then((document) => {
      writeFileSync(OPENAPI_FILE, serializeOpenApi(document));
      process.stdout.write(`Wrote ${path.relative(process.cwd(), OPENAPI_FILE)} (${Object.keys(document.paths).length} paths)\n`);
    })
    .catch((error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    });
}
