/** A field of a payload schema, one row of the catalog's table: `unitRental.rentalRecordUuid`, `promotions[].name`. */
export interface SchemaField {
  path: string;
  type: string;
  required: boolean;
  /** Allowed values, format and bounds, in words. */
  notes: string;
}

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  description?: string;
};

const UUID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
/** zod's bounds of a safe integer say nothing a reader needs. */
const SAFE_INTEGER = 9007199254740991;

const typeOf = (schema: JsonSchema): string => {
  if (schema.anyOf) return schema.anyOf.map(typeOf).join(' or ');
  const types = [schema.type ?? 'any'].flat();
  return types
    .map((type) => (type === 'string' && schema.pattern === UUID_PATTERN ? 'uuid' : type === 'array' ? `array of ${typeOf(schema.items ?? {})}` : type))
    .join(' or ');
};

const notesOf = (schema: JsonSchema): string => {
  const parts: string[] = [];
  if (schema.description) parts.push(schema.description);
  if (schema.const !== undefined) parts.push(`always ${JSON.stringify(schema.const)}`);
  if (schema.enum) parts.push(`one of ${schema.enum.map((value) => JSON.stringify(value)).join(', ')}`);
  if (schema.format) parts.push(schema.format);
  if (schema.pattern && schema.pattern !== UUID_PATTERN) parts.push(`matches ${schema.pattern}`);
  if (schema.minimum !== undefined && Math.abs(schema.minimum) !== SAFE_INTEGER) parts.push(`at least ${schema.minimum}`);
  if (schema.exclusiveMinimum !== undefined) parts.push(`more than ${schema.exclusiveMinimum}`);
  if (schema.maximum !== undefined && schema.maximum !== SAFE_INTEGER) parts.push(`at most ${schema.maximum}`);
  for (const option of schema.anyOf ?? []) {
    const inner = notesOf(option);
    if (inner) parts.push(inner);
  }
  return parts.join('; ');
};

/** The fields of a JSON Schema, depth first, objects inside arrays included, in the order the schema lists them. */
export function schemaFields(schema: JsonSchema, prefix = ''): SchemaField[] {
  const object = schema.type === 'array' ? schema.items : schema;
  if (!object?.properties) return [];
  return Object.entries(object.properties).flatMap(([name, field]) => {
    const path = `${prefix}${schema.type === 'array' ? '[].' : prefix ? '.' : ''}${name}`;
    const row = { path, type: typeOf(field), required: object.required?.includes(name) ?? false, notes: notesOf(field) };
    return [row, ...schemaFields(field, path)];
  });
}
