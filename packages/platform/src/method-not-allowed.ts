import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import FindMyWay from 'find-my-way';
import { PROBLEM_CONTENT_TYPE, problemFor } from './problem-details';

/**
 * A known path asked with a method it does not take is answered 405 with `Allow`, not 404. Fastify's router
 * only answers "not found"; a second router holds each route's path once, with the methods it takes. The path is
 * the most specific one matching (a static segment before a parameter, as OpenAPI matches paths): `GET
 * …/tenant/check-preexisting` is that POST-only path asked with GET, not `GET …/tenant/{leadUuid}` with a bad uuid.
 */
export function answerMethodNotAllowed(app: NestFastifyApplication): void {
  const fastify = app.getHttpAdapter().getInstance();
  const paths = FindMyWay({ ignoreTrailingSlash: fastify.initialConfig.ignoreTrailingSlash, caseSensitive: fastify.initialConfig.caseSensitive });
  const methodsByPath = new Map<string, Set<string>>();
  fastify.addHook('onRoute', (route) => {
    let methods = methodsByPath.get(route.url);
    if (methods === undefined) {
      methods = new Set();
      methodsByPath.set(route.url, methods);
      // The lookup only needs the path; its store is the set of methods, filled as the routes come.
      paths.on('GET', route.url, () => undefined, methods);
    }
    for (const method of [route.method].flat()) methods.add(method);
  });
  fastify.addHook('onRequest', async (request, reply) => {
    const found = paths.find('GET', request.url.split('?')[0]);
    const methods = found?.store as Set<string> | undefined;
    if (methods === undefined || methods.has(request.method)) return;
    // A route was matched: refuse only when it is another of our paths, less specific than the one found.
    const matched = request.is404 ? undefined : methodsByPath.get(request.routeOptions.url ?? '');
    if (!request.is404 && (matched === undefined || matched === methods)) return;
    const allow = [...methods].join(', ');
    await reply
      .code(405)
      .header('allow', allow)
      .type(PROBLEM_CONTENT_TYPE)
      .send(problemFor(405, `This path takes ${allow}.`));
  });
}
