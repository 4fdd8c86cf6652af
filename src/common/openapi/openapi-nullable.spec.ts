import type { OpenAPIObject } from '@nestjs/swagger';
import {
  declareNullableObjects,
  NULL_SCHEMA_NAME,
} from './openapi-nullable.js';

function documentWith(property: object): OpenAPIObject {
  return {
    openapi: '3.0.0',
    info: { title: 'x', version: '1' },
    paths: {},
    components: {
      schemas: {
        Captcha: {
          type: 'object',
          properties: { provider: { type: 'string' } },
        },
        Form: { type: 'object', properties: { captcha: property } },
      },
    },
  };
}

describe('declareNullableObjects', () => {
  it('writes a nullable allOf [$ref] as one of the object or Null, keeping its description', () => {
    const document = documentWith({
      nullable: true,
      type: 'object',
      description: 'The CAPTCHA, or null.',
      allOf: [{ $ref: '#/components/schemas/Captcha' }],
    });
    declareNullableObjects(document);
    const schemas = document.components!.schemas! as Record<
      string,
      { properties?: Record<string, unknown> }
    >;
    expect(schemas.Form.properties!.captcha).toEqual({
      description: 'The CAPTCHA, or null.',
      oneOf: [
        { $ref: '#/components/schemas/Captcha' },
        { $ref: `#/components/schemas/${NULL_SCHEMA_NAME}` },
      ],
    });
    expect(schemas[NULL_SCHEMA_NAME]).toMatchObject({
      type: 'object',
      nullable: true,
      enum: [null],
    });
  });

  it('leaves other schemas alone and adds no Null schema when none is needed', () => {
    const plain = { type: 'string', nullable: true };
    const document = documentWith(plain);
    declareNullableObjects(document);
    const schemas = document.components!.schemas! as Record<
      string,
      { properties?: Record<string, unknown> }
    >;
    expect(schemas.Form.properties!.captcha).toEqual(plain);
    expect(schemas[NULL_SCHEMA_NAME]).toBeUndefined();
  });

  it('is idempotent: a document rewritten twice stays the same', () => {
    const document = documentWith({
      nullable: true,
      allOf: [{ $ref: '#/components/schemas/Captcha' }],
    });
    declareNullableObjects(document);
    const once = JSON.stringify(document);
    declareNullableObjects(document);
    expect(JSON.stringify(document)).toBe(once);
  });
});
