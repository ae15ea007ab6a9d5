import { readFileSync } from 'node:fs';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import type { OpenAPIObject, SchemaObject } from '@nestjs/swagger';
import { problemFor } from '@storage/platform';
import { generateOpenApiDocument, OPENAPI_FILE, serializeOpenApi } from '../src/openapi/generate';
import { NO_NUL_PATTERN } from '../src/openapi/request-strings';
import { openApiSpecErrors, VALIDATOR_TIMEOUT_MS } from './support/openapi-spec-validator';

/** The endpoint table of the published spec (section 4): number, method, path. */
const SPEC_OPERATIONS: [number, string, string][] = [
  [1, 'post', '/shopping/{portfolio}/v1/promotions/eligible-auto-applied-promotions-with-highest-discount'],
  [2, 'post', '/shopping/{portfolio}/v1/facilities/tenant/validate-preexisting'],
  [3, 'get', '/shopping/{portfolio}/v1/facilities/tenant/{leadUuid}'],
  [4, 'get', '/shopping/{portfolio}/v1/coverages/{facilityUuid}'],
  [5, 'get', '/shopping/{portfolio}/v1/lead-sources'],
  [6, 'get', '/api/portfolios'],
  [7, 'post', '/api/{portfolio}/portfolios/v1/facilities/{facilityUuid}/unitGroups/sizeAndType/get_by_uuids'],
  [8, 'post', '/api/{portfolio}/portfolios/v1/facilities/{facilityUuid}/vehicles/get_by_uuids'],
  [9, 'post', '/api/{portfolio}/portfolios/v1/facilities/{facilityUuid}/coverageHistory/get_by_uuids'],
  [10, 'patch', '/api/{portfolio}/portfolios/v1/facilities/{facilityUuid}/unitGroups/{unitGroupUuid}/rate'],
  [11, 'patch', '/api/{portfolio}/portfolios/v1/tenants/person/{personUuid}'],
  [12, 'post', '/api/{portfolio}/portfolios/v1/notes/lead/{leadUuid}'],
  [13, 'post', '/api/{portfolio}/portfolios/v1/facilities/{facilityUuid}/leads/{leadUuid}/sendLease'],
  [14, 'get', '/api/{portfolio}/portfolios/v1/facilities/{facilityUuid}/rentalRecords/{unitRentalRecordUuid}/gateAccessCode'],
];

/** Operations 15-20, served by the webhook routes of src/webhooks (built separately from operations 1-14). */
const SPEC_WEBHOOK_OPERATIONS: [number, string, string][] = [
  [15, 'post', '/api/v1/webhooks/subscriptions'],
  [16, 'get', '/api/v1/webhooks/subscriptions'],
  [17, 'patch', '/api/v1/webhooks/subscriptions'],
  [18, 'delete', '/api/v1/webhooks/subscriptions'],
  [19, 'post', '/api/v1/webhooks/subscriptions/test'],
  [20, 'get', '/api/v1/webhooks/dashboard-link'],
];

const EXTENSIONS: [string, string][] = [
  ['get', '/shopping/{portfolio}/v1/facilities'],
  ['post', '/shopping/{portfolio}/v1/leads'],
  ['post', '/shopping/{portfolio}/v1/facilities/tenant/check-preexisting'],
  ['get', '/api/{portfolio}/portfolios/v1/notifications'],
];

type Response = { description: string; content?: Record<string, { schema?: unknown }> };
type Operation = {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: { name: string; in: string; required?: boolean }[];
  responses: Record<string, Response>;
  deprecated?: boolean;
  security?: Record<string, string[]>[];
  'x-api-key-scope'?: string;
};
const operation = (document: OpenAPIObject, method: string, path: string): Operation | undefined =>
  (document.paths[path] as Record<string, Operation> | undefined)?.[method];

/** Every operation of the document as [method, path, operation]. */
const operations = (document: OpenAPIObject): [string, string, Operation][] =>
  Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods as Record<string, Operation>).map(([method, found]) => [method, path, found] as [string, string, Operation]),
  );

/** The lease pages answer HTML for the tenant's browser, failures included. */
const HTML_PAGES = new Set(['viewLease', 'signLease']);
const PROBLEM = { 'application/problem+json': { schema: { $ref: '#/components/schemas/ProblemDetails' } } };
const clientErrors = (found: Operation): [string, Response][] => Object.entries(found.responses).filter(([status]) => /^4\d\d$/.test(status));
const takesApiKey = (found: Operation): boolean => (found.security ?? []).some((requirement) => 'apiKey' in requirement);

let document: OpenAPIObject;
beforeAll(async () => {
  document = await generateOpenApiDocument();
});

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(JSON.stringify(document)).not.toContain('"nullable"');
  });

  it('matches the committed apps/api/openapi.json (run `npm run openapi -w @storage/api` after changing the code)', () => {
    expect(readFileSync(OPENAPI_FILE, 'utf8')).toBe(serializeOpenApi(document));
  });

  it(
    'the committed apps/api/openapi.json passes openapi-spec-validator (every path parameter declared, the OpenAPI 3.1 schema)',
    async () => {
      expect(await openApiSpecErrors(JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')))).toBe('');
    },
    VALIDATOR_TIMEOUT_MS,
  );

  it('passes a mainstream linter, Redocly with its recommended rules: no error and no warning', async () => {
    const problems = await lintFromString({
      source: readFileSync(OPENAPI_FILE, 'utf8'),
      absoluteRef: OPENAPI_FILE,
      config: await createConfig({ extends: ['recommended'] }),
    });
    expect(problems.map(({ severity, ruleId, message, location }) => `${severity} ${ruleId} at ${location[0]?.pointer ?? '?'}: ${message}`)).toEqual([]);
  });

  it('declares the API key as a security scheme, required by every operation but the keyless lease pages, and no x-api-key header parameter', () => {
    expect(document.components?.securitySchemes).toEqual({ apiKey: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'x-api-key' }) });
    for (const [method, path, found] of operations(document)) {
      const keyless = HTML_PAGES.has(found.operationId);
      expect({ at: `${method} ${path}`, security: found.security }).toEqual({ at: `${method} ${path}`, security: keyless ? [] : [{ apiKey: [] }] });
      const headers = (found.parameters ?? []).filter((parameter) => parameter.in === 'header').map((parameter) => parameter.name.toLowerCase());
      expect({ at: `${method} ${path}`, headers }).toEqual({ at: `${method} ${path}`, headers: expect.not.arrayContaining(['x-api-key']) });
    }
  });

  it('gives every operation a summary and a description', () => {
    for (const [method, path, found] of operations(document)) {
      const at = `${method} ${path}`;
      expect({ at, summary: found.summary, description: found.description }).toEqual({
        at,
        summary: expect.stringMatching(/\S/),
        description: expect.stringMatching(/\S/),
      });
    }
  });

  it.each(SPEC_OPERATIONS)('has operation %i: %s %s, with the API key and a 200 answer', (_, method, path) => {
    const found = operation(document, method, path);
    expect(found).toBeDefined();
    expect(found!.security).toEqual([{ apiKey: [] }]);
    expect(found!.responses['200']).toBeDefined();
  });

  it('marks operation 10 deprecated', () => {
    expect(operation(document, 'patch', SPEC_OPERATIONS[9][2])!.deprecated).toBe(true);
  });

  it('tags the extension operations "Extensions"', () => {
    for (const [method, path] of EXTENSIONS) expect(operation(document, method, path)?.tags).toEqual(['Extensions']);
    const published = new Set(SPEC_OPERATIONS.map(([, , path]) => path));
    for (const [path, methods] of Object.entries(document.paths)) {
      if (published.has(path)) for (const found of Object.values(methods as Record<string, Operation>)) expect(found.tags).not.toContain('Extensions');
    }
  });

  it('documents every 4xx answer as application/problem+json with the shared ProblemDetails schema', () => {
    for (const [method, path, found] of operations(document)) {
      for (const [status, response] of clientErrors(found)) {
        const where = `${method} ${path} ${status}`;
        if (HTML_PAGES.has(found.operationId) && response.content?.['text/html'] !== undefined) continue;
        expect({ where, content: response.content }).toEqual({ where, content: PROBLEM });
      }
    }
  });

  it('documents on every operation the 503 the problem filter answers when the database fails for a while, as problem+json with Retry-After', () => {
    for (const [method, path, found] of operations(document)) {
      const where = `${method} ${path}`;
      const unavailable = found.responses['503'] as (Response & { headers?: Record<string, { schema?: unknown }> }) | undefined;
      expect({ where, content: unavailable?.content, retryAfter: unavailable?.headers?.['Retry-After']?.schema }).toEqual({
        where,
        content: PROBLEM,
        retryAfter: { type: 'integer', minimum: 1 },
      });
    }
  });

  it('documents the lease pages’ refusals as HTML, and their body failures as problem+json', () => {
    const sign = operation(document, 'post', '/leases/sign/{token}')!;
    expect(Object.keys(sign.responses['409'].content!)).toEqual(['text/html']);
    expect(sign.responses['400'].content).toEqual({ 'text/html': expect.anything(), ...PROBLEM });
    expect(sign.responses['415'].content).toEqual(PROBLEM);
  });

  it('ProblemDetails is the shape the problem filter writes (@storage/platform problemFor)', () => {
    const schemas = document.components!.schemas as Record<string, SchemaObject>;
    const withErrors = problemFor(409, 'Conflict.', [{ field: 'unitGroupUuid', message: 'no vacant unit' }]);
    expect(Object.keys(schemas.ProblemDetails.properties!).sort()).toEqual(Object.keys(withErrors).sort());
    expect([...schemas.ProblemDetails.required!].sort()).toEqual(Object.keys(problemFor(404, 'Not found.')).sort());
    expect(schemas.ProblemDetails.properties!.errors).toMatchObject({ type: 'array', items: { $ref: '#/components/schemas/FieldError' } });
    expect(Object.keys(schemas.FieldError.properties!).sort()).toEqual(Object.keys(withErrors.errors![0]).sort());
    expect([...schemas.FieldError.required!].sort()).toEqual(['field', 'message']);
  });

  it('documents what every route of a kind may answer: 400, 413 and 415 with a body, 401 with a key, 403 on writes and admin routes, 404 under a portfolio, 414 with a path parameter', () => {
    for (const [method, path, found] of operations(document)) {
      const statuses = clientErrors(found).map(([status]) => Number(status));
      const where = `${method} ${path}`;
      if (method !== 'get') expect({ where, statuses }).toEqual({ where, statuses: expect.arrayContaining([400, 413, 415]) });
      if (path.includes('{portfolio}')) expect({ where, statuses }).toEqual({ where, statuses: expect.arrayContaining([404]) });
      if (path.includes('{')) expect({ where, statuses }).toEqual({ where, statuses: expect.arrayContaining([414]) });
      if (!takesApiKey(found)) continue;
      const scope = found['x-api-key-scope'];
      expect({ where, scope }).toEqual({ where, scope: expect.stringMatching(/^(read|write|admin)$/) });
      expect({ where, statuses }).toEqual({ where, statuses: expect.arrayContaining([401]) });
      expect({ where, scope, forbidden: statuses.includes(403) }).toEqual({ where, scope, forbidden: scope !== 'read' });
    }
  });

  it('names the scope of the POSTs that only read (operations 1, 7, 8, 9), of operation 20 (its portal manages webhooks) as write, and of every other GET as read', () => {
    for (const number of [1, 7, 8, 9]) {
      const [, method, path] = SPEC_OPERATIONS[number - 1];
      expect(operation(document, method, path)!['x-api-key-scope']).toBe('read');
    }
    const [, portalMethod, portalPath] = SPEC_WEBHOOK_OPERATIONS.find(([number]) => number === 20)!;
    expect(operation(document, portalMethod, portalPath)!['x-api-key-scope']).toBe('write');
    for (const [method, path, found] of operations(document)) {
      if (method === 'get' && takesApiKey(found) && path !== portalPath) expect({ path, scope: found['x-api-key-scope'] }).toEqual({ path, scope: 'read' });
    }
    expect(operation(document, 'post', SPEC_OPERATIONS[11][2])!['x-api-key-scope']).toBe('write');
  });

  it('declares every path parameter of the template: {portfolio} as a string, the uuids with format uuid', () => {
    for (const [method, path, found] of operations(document)) {
      const declared = new Map((found.parameters ?? []).filter((parameter) => parameter.in === 'path').map((parameter) => [parameter.name, parameter]));
      for (const [, name] of path.matchAll(/\{(\w+)\}/g)) {
        const where = `${method} ${path} {${name}}`;
        expect({ where, parameter: declared.get(name) }).toEqual({ where, parameter: expect.objectContaining({ in: 'path', required: true }) });
        const schema = (declared.get(name) as { schema?: SchemaObject } | undefined)?.schema;
        if (name === 'portfolio') expect({ where, schema }).toEqual({ where, schema: expect.objectContaining({ type: 'string', minLength: 1 }) });
        if (name.endsWith('Uuid')) expect({ where, schema }).toEqual({ where, schema: { type: 'string', format: 'uuid' } });
      }
    }
  });

  it('says what the API refuses that a type alone does not: no NUL in a free-text request string, a lead with an email or a phone', () => {
    const schemas = document.components!.schemas as Record<string, SchemaObject>;
    expect(schemas.CreateNote.properties!.noteText).toMatchObject({ type: 'string', pattern: NO_NUL_PATTERN });
    expect(schemas.CreateLeadRequest.anyOf).toEqual([{ required: ['email'] }, { required: ['phone'] }]);
    expect(new RegExp((schemas.CreateLeadRequest.properties!.phone as SchemaObject).pattern!).test('(212) 555-0142')).toBe(true);
    expect(schemas.ProblemDetails.properties!.detail).not.toHaveProperty('pattern');
  });

  it('links name operations of the document, with parameters they take', () => {
    const byId = new Map([...operations(document)].map(([, , operation]) => [operation.operationId, operation]));
    let links = 0;
    for (const [, , operation] of operations(document)) {
      for (const response of Object.values(operation.responses ?? {})) {
        for (const [name, link] of Object.entries((response as { links?: Record<string, { operationId: string; parameters?: object }> }).links ?? {})) {
          links++;
          const target = byId.get(link.operationId);
          expect({ name, found: target !== undefined }).toEqual({ name, found: true });
          const taken = new Set((target?.parameters ?? []).map((parameter) => ('name' in parameter ? parameter.name : '')));
          for (const parameter of Object.keys(link.parameters ?? {}))
            expect({ name, parameter, taken: taken.has(parameter) }).toEqual({ name, parameter, taken: true });
        }
      }
    }
    expect(links).toBeGreaterThan(0);
  });

  it('types money as integer pennies, with the bounds the API enforces on bids and payments', () => {
    const schemas = document.components!.schemas as Record<string, SchemaObject>;
    for (const [name, schema] of Object.entries(schemas)) {
      for (const [property, value] of Object.entries((schema.properties ?? {}) as Record<string, SchemaObject>)) {
        // An average of rents is the one amount in pennies that may be fractional.
        if (/InPennies$/.test(property) && property !== 'averageCurrentRentInPennies')
          expect({ name, property, type: value.type }).toEqual({ name, property, type: 'integer' });
      }
    }
    expect(schemas.CompleteAuctionRequest.properties!.winningBidInPennies).toMatchObject({ type: 'integer', minimum: 0, maximum: 2_147_483_647 });
    expect(schemas.UpdateAuctionRequest.properties!.minimumBidInPennies).toMatchObject({ type: 'integer', minimum: 0, maximum: 2_147_483_647 });
    expect(schemas.RecordPaymentRequest.properties!.amountInPennies).toMatchObject({ type: 'integer', minimum: 1, maximum: 100_000_000 });
    expect(schemas.RentChangeRequest.properties!.newRentInPennies).toMatchObject({ type: 'integer', minimum: 1, maximum: 10_000_000 });
  });

  it('declares dates, lengths, item counts and the PATCHes’ "at least one field" as the API checks them', () => {
    const schemas = document.components!.schemas as Record<string, SchemaObject>;
    const property = (schema: string, name: string): SchemaObject => (schemas[schema].properties as Record<string, SchemaObject>)[name];
    for (const [schema, name] of [
      ['ScheduleAuctionRequest', 'scheduledOn'],
      ['ScheduleAuctionRequest', 'endDate'],
      ['UpdateAuctionRequest', 'scheduledOn'],
      ['UpdateAuctionRequest', 'endDate'],
    ]) {
      expect({ schema, name, format: property(schema, name).format }).toEqual({ schema, name, format: 'date' });
    }
    for (const name of ['firstName', 'lastName']) expect(property('CreateLeadRequest', name)).toMatchObject({ minLength: 1, maxLength: 100 });
    expect(property('ValidatePreexistingRequest', 'code')).toMatchObject({ pattern: '^\\d{6}$' });
    for (const schema of ['CreateSubscription', 'Unsubscribe']) expect(property(schema, 'vendorName')).toMatchObject({ minLength: 1 });
    for (const schema of ['CreateSubscription', 'UpdateSubscription', 'Unsubscribe'])
      expect(property(schema, 'eventTypes')).toMatchObject({ minItems: 1, maxItems: 7 });
    expect(property('SizeAndTypeLookup', 'sizeAndTypeUnitGroupUuids')).toMatchObject({ maxItems: expect.any(Number) });
    expect(property('EligiblePromotionsRequest', 'unitGroupUuids')).toMatchObject({ maxItems: 1000 });
    for (const schema of ['PatchUnitGroupRate', 'UpdatePerson'])
      expect({ schema, minProperties: schemas[schema].minProperties }).toEqual({ schema, minProperties: 1 });
  });

  it('gives examples of dates the API accepts: today or later where it refuses the past', () => {
    const schemas = document.components!.schemas as Record<string, SchemaObject>;
    const today = new Date().toISOString().slice(0, 10);
    const examples = [
      schemas.RentChangeRequest.properties!.effectiveDate,
      schemas.ScheduleAuctionRequest.properties!.scheduledOn,
      schemas.UpdateAuctionRequest.properties!.scheduledOn,
    ];
    for (const example of examples.map((schema) => (schema as SchemaObject).example as string)) expect(example >= today).toBe(true);
  });

  // The webhook routes are built in src/webhooks by the webhooks work; this goes green when they are registered.
  it.each(SPEC_WEBHOOK_OPERATIONS)('has webhook operation %i: %s %s (src/webhooks)', (_, method, path) => {
    expect(operation(document, method, path)).toBeDefined();
  });
});
