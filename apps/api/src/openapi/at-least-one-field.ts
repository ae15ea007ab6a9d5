import type { OpenAPIObject, SchemaObject } from '@nestjs/swagger';

const schemaNames = new Set<string>();
const oneOfFields = new Map<string, string[]>();

/**
 * A PATCH body whose service refuses an empty object: its schema says so with `minProperties: 1`, which
 * @nestjs/swagger has no option for. The schema is found by the class name, as @nestjs/swagger names it.
 */
export const AtLeastOneField = (): ClassDecorator => (target) => {
  schemaNames.add(target.name);
};

/** A body that needs one of these optional fields at least (a lead's email or phone): `anyOf` of each required. */
export const RequiresOneOf =
  (...fields: string[]): ClassDecorator =>
  (target) => {
    oneOfFields.set(target.name, fields);
  };

/** Adds `minProperties: 1` to the schemas of the classes marked `@AtLeastOneField()`, `anyOf` to those marked `@RequiresOneOf()`. */
export function documentAtLeastOneField(document: OpenAPIObject): OpenAPIObject {
  const schemas = { ...document.components?.schemas } as Record<string, SchemaObject>;
  for (const name of schemaNames) if (schemas[name] !== undefined) schemas[name] = { ...schemas[name], minProperties: 1 };
  for (const [name, fields] of oneOfFields) {
    if (schemas[name] !== undefined) schemas[name] = { ...schemas[name], anyOf: fields.map((field) => ({ required: [field] })) };
  }
  return { ...document, components: { ...document.components, schemas } };
}
