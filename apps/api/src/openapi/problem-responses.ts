import {
  getSchemaPath,
  type ContentObject,
  type HeadersObject,
  type OpenAPIObject,
  type OperationObject,
  type ResponseObject,
  type ResponsesObject,
} from '@nestjs/swagger';
import { MAX_PATH_PARAMETER_LENGTH, PROBLEM_CONTENT_TYPE } from '@storage/platform';
import { API_KEY_SCHEME, API_KEY_SCOPE_EXTENSION, defaultScope } from '../auth';
import { mapOperations } from './operations';
import { ProblemDetailsSchema } from './problem-details.schema';

type Operation = OperationObject & { [API_KEY_SCOPE_EXTENSION]?: string };

const PROBLEM_CONTENT: ContentObject = { [PROBLEM_CONTENT_TYPE]: { schema: { $ref: getSchemaPath(ProblemDetailsSchema) } } };

const RETRY_AFTER: HeadersObject = { 'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 1 } } };

/** What a 429 says besides its problem (src/rate-limit). */
const RATE_LIMITED_HEADERS: HeadersObject = {
  ...RETRY_AFTER,
  'RateLimit-Policy': {
    description: 'The limit that refused: its name, requests at once (`q`) and the seconds they refill in (`w`).',
    schema: { type: 'string' },
  },
  RateLimit: { description: 'The limit that refused: requests left (`r=0`) and seconds until one more (`t`).', schema: { type: 'string' } },
};

/** What an answer says besides its problem, by status. */
const HEADERS_OF: Partial<Record<number, HeadersObject>> = { 429: RATE_LIMITED_HEADERS, 503: RETRY_AFTER };

/** Fastify parses (and so may refuse) the body of every method but these. */
const BODILESS_METHODS = new Set(['get', 'head']);

const takesApiKey = (operation: Operation): boolean => operation.security?.some((requirement) => API_KEY_SCHEME in requirement) ?? false;

/**
 * The failures the framework answers for whole kinds of routes, so no route declares them: Fastify parses
 * the body of every method but GET and HEAD (malformed, too large, unsupported type or charset), its router
 * refuses a path parameter too long or badly escaped, the API key guard refuses unknown keys and read keys on
 * writes, and resolves the `{portfolio}` segment; every operation is rate limited, and reads the database.
 */
function frameworkProblems(path: string, method: string, operation: Operation): Map<number, string> {
  const problems = new Map<number, string>();
  if (!BODILESS_METHODS.has(method)) {
    problems.set(400, 'Invalid input: a malformed body, or fields at fault (each named in `errors`).');
    problems.set(413, 'The body is too large.');
    problems.set(415, 'The body is not JSON in UTF-8 (nor, where the route takes one, a form), or its Content-Encoding is not gzip, deflate or br.');
  }
  if (path.includes('{')) {
    if (!problems.has(400)) problems.set(400, 'A path parameter is malformed (a bad percent escape, a NUL character).');
    problems.set(414, `A path segment is longer than ${MAX_PATH_PARAMETER_LENGTH} characters.`);
  }
  if (takesApiKey(operation)) {
    problems.set(401, 'Missing or unknown API key.');
    if (operation[API_KEY_SCOPE_EXTENSION] === 'write') problems.set(403, 'The API key may only read.');
    if (operation[API_KEY_SCOPE_EXTENSION] === 'admin') problems.set(403, 'The API key is not an admin key.');
  }
  if (path.includes('{portfolio}')) problems.set(404, 'Unknown resource, or a portfolio the key may not reach.');
  problems.set(429, 'Too many requests: per API key and kind of route, per client on the lease pages; wait `Retry-After` seconds.');
  // Every operation reads the database (the key guard, if nothing else): @storage/platform's ProblemDetailsFilter.
  problems.set(
    503,
    'Nothing was done, for a reason that passes: the database is not reachable or cannot serve the request for now, or is out of disk space or memory, or the request collided with another one changing the same data. Send the same request again after `Retry-After` seconds.',
  );
  return problems;
}

/** Every 4xx and 503 answer as problem+json: the framework's (above) added, declared ones given the shared schema. */
function withProblems(path: string, method: string, operation: Operation): Operation {
  const responses: ResponsesObject = { ...operation.responses };
  for (const [status, description] of frameworkProblems(path, method, operation)) {
    const declared = responses[status] as ResponseObject | undefined;
    // A declared answer keeps its words, and its own content (the lease pages' HTML) beside problem+json.
    responses[status] = {
      description: declared?.description ?? description,
      content: { ...declared?.content, ...PROBLEM_CONTENT },
      ...(HEADERS_OF[status] ? { headers: HEADERS_OF[status] } : {}),
    };
  }
  for (const [status, response] of Object.entries(responses)) {
    if (/^4\d\d$/.test(status) && response !== undefined && !('$ref' in response) && response.content === undefined) {
      responses[status] = { ...response, content: PROBLEM_CONTENT };
    }
  }
  return { ...operation, responses };
}

/** The scope each API-key operation needs: declared by `@ReadOperation()`, else the guard's default for its method. */
function withScope(method: string, operation: Operation): Operation {
  if (!takesApiKey(operation)) return operation;
  return { ...operation, [API_KEY_SCOPE_EXTENSION]: operation[API_KEY_SCOPE_EXTENSION] ?? defaultScope(method) };
}

/** Documents the scope and the problem+json failures of every operation of the document. */
export function documentProblems(document: OpenAPIObject): OpenAPIObject {
  return mapOperations(document, (operation, path, method) => withProblems(path, method, withScope(method, operation)));
}
