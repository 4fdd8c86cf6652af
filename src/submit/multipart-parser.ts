// The content-type parser of multipart/form-data bodies (multipart-body.ts reads them).
// Registered on the root instance, where Nest puts every route, but it only runs for
// multipart bodies, so JSON and form-encoded posts never reach it; any route but the
// public submit routes answers 415 as before.
import { errorCodes, type FastifyInstance } from 'fastify';
import { parseMultipart } from './multipart-body.js';
import { MULTIPART_TYPE } from './submit-navigation.js';
import { isPublicSubmitUrl } from './submit-urls.js';

/** Bodies of at most `limit` bytes, on the public submit routes only. */
export function addMultipartParser(
  fastify: FastifyInstance,
  limit: number,
): void {
  fastify.addContentTypeParser(MULTIPART_TYPE, (request, payload, done) => {
    if (!isPublicSubmitUrl(request.url)) {
      payload.resume();
      done(
        new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(
          request.headers['content-type'],
        ),
        undefined,
      );
      return;
    }
    parseMultipart(request.headers, payload, limit).then(
      (body) => done(null, body),
      (error: Error) => done(error, undefined),
    );
  });
}
