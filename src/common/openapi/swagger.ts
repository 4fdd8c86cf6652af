import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { completeDocument } from './openapi-document.js';

export const API_KEY_HEADER_SCHEME = 'apiKeyHeader';
export const API_KEY_QUERY_SCHEME = 'apiKeyQuery';
export const API_VERSION = '1.0.0';

/**
 * Swagger UI at /docs, the OpenAPI 3 document at /docs-json. The document is built when it is
 * first asked for, not at start: a server nobody reads the docs of starts faster and
 * smaller.
 */
export function setupSwagger(app: INestApplication): void {
  const document = () => {
    const built = SwaggerModule.createDocument(
      app,
      new DocumentBuilder()
        .setTitle('Formgate API')
        .setDescription(
          [
            'Formgate collects form submissions for sites without a backend.',
            '',
            '* `POST /api/submit/{formId}` is public (CORS open, rate-limited per IP).',
            "* `POST /f/{formId}` is the same, answering in Formspree's shapes for sites and",
            '  client libraries (`@formspree/core`) made for Formspree.',
            '* Everything under `/api/v1` needs an API key: send it in the `x-api-key` header',
            '  (recommended) or the `apiKey` query parameter. Form keys (`fgk_…`) reach one form;',
            '  account keys (`fga_…`) reach every form of the account.',
            '',
            'Errors are always JSON: `{"error": "…"}`, plus `"errors": ["…"]` on validation failures',
            '(on `/f/{formId}`: `"errors": [{"field", "code", "message"}]`).',
          ].join('\n'),
        )
        .setVersion(API_VERSION)
        .setLicense('MIT', 'https://opensource.org/license/mit')
        // Relative: the installation that serves this document, whatever its address.
        .addServer('/', 'This installation')
        .addApiKey(
          {
            type: 'apiKey',
            in: 'header',
            name: 'x-api-key',
            description: 'Form or account API key',
          },
          API_KEY_HEADER_SCHEME,
        )
        .addApiKey(
          {
            type: 'apiKey',
            in: 'query',
            name: 'apiKey',
            description:
              'For quick tests only: the key may end up in server logs.',
          },
          API_KEY_QUERY_SCHEME,
        )
        .build(),
    );
    return completeDocument(built);
  };
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'docs-json',
    yamlDocumentUrl: 'docs-yaml',
    customSiteTitle: 'Formgate API',
    swaggerOptions: { persistAuthorization: true },
  });
}
