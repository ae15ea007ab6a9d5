import type { OpenAPIObject, ParameterObject, ReferenceObject, SchemaObject } from '@nestjs/swagger';
import { mapOperations } from './operations';

/**
 * PostgreSQL text cannot hold a NUL character, so the API refuses one in every string it reads (400, see
 * `refuseNulCharacters`); a free-text string of a request says so, or a fuzzer rightly counts the refusal as a
 * schema-valid request rejected. Strings with a format, an enum or a pattern already exclude it.
 */
export const NO_NUL_PATTERN = '^[^\\u0000]*$';

type Schema = SchemaObject | ReferenceObject;

const refName = (schema: Schema): string | null => ('$ref' in schema ? schema.$ref.replace('#/components/schemas/', '') : null);

function withoutNul(schema: Schema, refs: Set<string>): Schema {
  const name = refName(schema);
  if (name !== null) {
    refs.add(name);
    return schema;
  }
  const object = schema as SchemaObject;
  const out: SchemaObject = { ...object };
  const types = [object.type].flat();
  if (types.includes('string') && object.format === undefined && object.enum === undefined && object.pattern === undefined && !('const' in object)) {
    out.pattern = NO_NUL_PATTERN;
  }
  if (object.items !== undefined) out.items = withoutNul(object.items, refs);
  if (object.properties !== undefined) {
    out.properties = Object.fromEntries(Object.entries(object.properties).map(([key, value]) => [key, withoutNul(value, refs)]));
  }
  for (const key of ['allOf', 'oneOf', 'anyOf'] as const) {
    const list = object[key];
    if (list !== undefined) out[key] = list.map((item) => withoutNul(item, refs));
  }
  return out;
}

/** Declares on every free-text string a request carries (path, query, body, and the schemas they use) that it holds no NUL. */
export function documentRequestStrings(document: OpenAPIObject): OpenAPIObject {
  const refs = new Set<string>();
  const { paths } = mapOperations(document, (operation) => {
    const parameters = operation.parameters?.map((parameter) => {
      const p = parameter as ParameterObject;
      return p.in === 'header' || p.schema === undefined ? parameter : { ...p, schema: withoutNul(p.schema, refs) };
    });
    const body = operation.requestBody;
    const requestBody =
      body === undefined || '$ref' in body
        ? body
        : {
            ...body,
            content: Object.fromEntries(
              Object.entries(body.content).map(([type, media]) => [
                type,
                media.schema === undefined ? media : { ...media, schema: withoutNul(media.schema, refs) },
              ]),
            ),
          };
    return { ...operation, ...(parameters === undefined ? {} : { parameters }), ...(requestBody === undefined ? {} : { requestBody }) };
  });
  const schemas = { ...document.components?.schemas };
  const done = new Set<string>();
  while (refs.size > done.size) {
    for (const name of [...refs]) {
      if (done.has(name)) continue;
      done.add(name);
      const schema = schemas[name];
      if (schema !== undefined) schemas[name] = withoutNul(schema, refs);
    }
  }
  return { ...document, paths, components: { ...document.components, schemas } };
}
