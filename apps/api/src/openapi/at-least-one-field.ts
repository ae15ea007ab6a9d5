import type { OpenAPIObject, SchemaObject } from '@nestjs/swagger';

const schemaNames = new Set<string>();

/**
 * A PATCH body whose service refuses an empty object: its schema says so with `minProperties: 1`, which
 * @nestjs/swagger has no option for. The schema is found by the class name, as @nestjs/swagger names it.
 */
export const AtLeastOneField = (): ClassDecorator => (target) => {
  schemaNames.add(target.name);
};

/** Adds `minProperties: 1` to the schemas of the classes marked `@AtLeastOneField()`. */
export function documentAtLeastOneField(document: OpenAPIObject): OpenAPIObject {
  const schemas = { ...document.components?.schemas } as Record<string, SchemaObject>;
  for (const name of schemaNames) if (schemas[name] !== undefined) schemas[name] = { ...schemas[name], minProperties: 1 };
  return { ...document, components: { ...document.components, schemas } };
}
