// "This object, or null" in OpenAPI 3.0. @nestjs/swagger writes a nullable object property as
// `{nullable: true, type: 'object', allOf: [{$ref}]}`; read to the letter (3.0.3: `nullable`
// adds null to the `type` beside it, and null must still pass every `allOf` member), that
// refuses null, and strict validators and client generators type the property as the object
// alone. The document says it unambiguously instead: one of the object or the `Null` schema.
import type { OpenAPIObject } from '@nestjs/swagger';

export const NULL_SCHEMA_NAME = 'Null';

type SchemaObject = NonNullable<
  NonNullable<OpenAPIObject['components']>['schemas']
>[string];

const NULL_SCHEMA: SchemaObject = {
  type: 'object',
  nullable: true,
  enum: [null],
  description: 'Always null: the property has no value.',
};

type Schema = Record<string, unknown>;

function isNullableReference(schema: Schema): boolean {
  const allOf = schema.allOf;
  return (
    schema.nullable === true &&
    Array.isArray(allOf) &&
    allOf.length === 1 &&
    typeof (allOf[0] as Schema | undefined)?.$ref === 'string'
  );
}

/** `schema` with every nullable `allOf: [$ref]` below it rewritten; true when one was found. */
function rewrite(schema: unknown): boolean {
  if (Array.isArray(schema)) {
    return schema.map(rewrite).some(Boolean);
  }
  if (schema === null || typeof schema !== 'object') return false;
  const object = schema as Schema;
  let found = false;
  if (isNullableReference(object)) {
    const [reference] = object.allOf as Schema[];
    delete object.allOf;
    delete object.nullable;
    delete object.type;
    object.oneOf = [
      reference,
      { $ref: `#/components/schemas/${NULL_SCHEMA_NAME}` },
    ];
    found = true;
  }
  for (const value of Object.values(object)) {
    if (rewrite(value)) found = true;
  }
  return found;
}

/** Rewrites the document's nullable object properties (and adds `Null` when one is used). */
export function declareNullableObjects(document: OpenAPIObject): void {
  const schemas = (document.components ??= {}).schemas ?? {};
  let used = rewrite(schemas);
  if (rewrite(document.paths)) used = true;
  if (used) {
    document.components.schemas = {
      ...schemas,
      [NULL_SCHEMA_NAME]: NULL_SCHEMA,
    };
  }
}
