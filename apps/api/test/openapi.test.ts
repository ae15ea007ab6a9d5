import { readFileSync } from 'node:fs';
import type { OpenAPIObject } from '@nestjs/swagger';
import { generateOpenApiDocument, OPENAPI_FILE, serializeOpenApi } from '../src/openapi/generate';

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

type Operation = { tags?: string[]; parameters?: { name: string; in: string; required?: boolean }[]; responses: Record<string, unknown>; deprecated?: boolean };
const operation = (document: OpenAPIObject, method: string, path: string): Operation | undefined =>
  (document.paths[path] as Record<string, Operation> | undefined)?.[method];

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

  it.each(SPEC_OPERATIONS)('has operation %i: %s %s, with the x-api-key header and a 200 answer', (_, method, path) => {
    const found = operation(document, method, path);
    expect(found).toBeDefined();
    expect(found!.parameters).toContainEqual(expect.objectContaining({ name: 'x-api-key', in: 'header', required: true }));
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

  // The webhook routes are built in src/webhooks by the webhooks work; this goes green when they are registered.
  it.each(SPEC_WEBHOOK_OPERATIONS)('has webhook operation %i: %s %s (src/webhooks)', (_, method, path) => {
    expect(operation(document, method, path)).toBeDefined();
  });
});
