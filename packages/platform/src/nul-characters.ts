import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { PROBLEM_CONTENT_TYPE, problemFor, type FieldError } from './problem-details';

/** How deep a body is searched; deeper bodies are refused by their own validation. */
const MAX_DEPTH = 64;

/**
 * PostgreSQL text cannot hold a NUL character (U+0000): a string with one fails in the database, as a 500. Every
 * request's path parameters, query and parsed body are searched before the route runs, and one holding it is
 * answered 400 problem+json naming the field.
 */
export function refuseNulCharacters(app: NestFastifyApplication): void {
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('preValidation', async (request, reply) => {
      const field = [request.params, request.query, request.body].map((part) => fieldWithNul(part, '', 0)).find((found) => found !== null);
      if (field === undefined || field === null) return;
      const errors: FieldError[] = [{ field, message: `${field} must not contain a NUL character (U+0000)` }];
      await reply.code(400).type(PROBLEM_CONTENT_TYPE).send(problemFor(400, 'The request has invalid fields.', errors));
    });
}

/** The path of the first string or key holding a NUL character (`a.b[0].c`), or null. */
function fieldWithNul(value: unknown, path: string, depth: number): string | null {
  if (typeof value === 'string') return value.includes('\0') ? path || 'value' : null;
  if (typeof value !== 'object' || value === null || depth > MAX_DEPTH) return null;
  for (const [key, item] of Object.entries(value)) {
    const itemPath = Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
    if (key.includes('\0')) return itemPath;
    const found = fieldWithNul(item, itemPath, depth + 1);
    if (found !== null) return found;
  }
  return null;
}
