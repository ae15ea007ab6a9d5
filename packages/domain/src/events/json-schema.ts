import { z } from 'zod';

/** AsyncAPI schemas extend draft 7; OpenAPI 3.1 schemas are JSON Schema 2020-12. */
export type JsonSchemaTarget = 'draft-7' | 'draft-2020-12';

/**
 * A zod schema as the JSON Schema of the values it accepts (its output), so the published documents describe
 * what producers and consumers validate with. The `$schema` keyword is dropped: each document declares its dialect once.
 */
export function eventJsonSchema(schema: z.ZodType, target: JsonSchemaTarget): Record<string, unknown> {
  const json: Record<string, unknown> = z.toJSONSchema(schema, { target, io: 'output', unrepresentable: 'any' });
  delete json.$schema;
  return json;
}
