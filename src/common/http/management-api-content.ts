// The management API (/api/v1) reads JSON only. Fastify would also parse a form-encoded body
// for any route; a client generated from the OpenAPI document, which declares only JSON,
// would never send one, and accepting it silently (with every value a string) only hides a
// mistake. So any other body type is refused with 415 before the body is read.
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  MANAGEMENT_API_CONTENT_TYPE,
  UNSUPPORTED_MANAGEMENT_TYPE_MESSAGE,
} from '../openapi/openapi-document.js';

const PREFIX = '/api/v1';

function isManagementUrl(url: string): boolean {
  if (!url.startsWith(PREFIX)) return false;
  const next = url.charAt(PREFIX.length);
  return next === '' || next === '/' || next === '?';
}

function mediaType(header: string): string {
  const end = header.indexOf(';');
  return (end === -1 ? header : header.slice(0, end)).trim().toLowerCase();
}

export function configureManagementApiContent(
  app: NestFastifyApplication,
): void {
  app
    .getHttpAdapter()
    .getInstance()
    .addHook(
      'onRequest',
      (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
        const header = request.headers['content-type'];
        if (
          header === undefined ||
          !isManagementUrl(request.url) ||
          mediaType(header) === MANAGEMENT_API_CONTENT_TYPE
        ) {
          done();
          return;
        }
        void reply
          .code(415)
          .send({ error: UNSUPPORTED_MANAGEMENT_TYPE_MESSAGE });
      },
    );
}
