import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
// Only the path helper: the package's index evaluates the whole Swagger UI bundle, 38 MB of RSS for a browser's script.
import getAbsoluteFSPath from 'swagger-ui-dist/absolute-path.js';

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

const PAGE = (jsonUrl: string) => `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Storage Rental Service API</title><link rel="stylesheet" href="/docs/swagger-ui.css"></head>
<body><div id="ui"></div><script src="/docs/swagger-ui-bundle.js"></script>
<script>window.ui = SwaggerUIBundle({ url: ${JSON.stringify(jsonUrl)}, dom_id: '#ui', deepLinking: true });</script></body>
</html>`;

/**
 * Serves the base address (links to what follows) and Swagger UI at /docs from swagger-ui-dist with two plain routes, instead of @nestjs/swagger's
 * UI, which needs @fastify/static (ESM-only dependencies that jest cannot load).
 */
export function serveDocsPage(app: NestFastifyApplication, jsonUrl: string): void {
  const fastify = app.getHttpAdapter().getInstance();
  // The base address says where to start instead of answering 404 to whoever opens it first.
  fastify.get('/', (_request, reply) =>
    reply.send({ service: 'Storage Rental Service API', docs: '/docs', openapi: jsonUrl, health: '/health/ready', authentication: 'x-api-key header' }),
  );
  // Read when first asked for (most replicas never serve them), then kept.
  const bodies = new Map<string, Buffer>();
  const bodyOf = (file: string): Buffer => {
    let body = bodies.get(file);
    if (body === undefined) bodies.set(file, (body = readFileSync(path.join(getAbsoluteFSPath(), file))));
    return body;
  };
  fastify.get('/docs', (_request, reply) => reply.type('text/html; charset=utf-8').send(PAGE(jsonUrl)));
  fastify.get<{ Params: { file: string } }>('/docs/:file', (request, reply) => {
    const file = request.params.file;
    if (!Object.hasOwn(ASSETS, file)) return reply.callNotFound();
    return reply.type(ASSETS[file]).header('cache-control', 'public, max-age=86400').send(bodyOf(file));
  });
}
