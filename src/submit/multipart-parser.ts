// The content-type parser of multipart/form-data bodies (multipart-body.ts reads them).
// Registered on the root instance, where Nest puts every route, but it only runs for
// multipart bodies, so JSON and form-encoded posts never reach it; any route but the
// public submit routes answers 415 as before. A form that takes files gets its files
// streamed to storage, under UPLOAD_BODY_LIMIT and an idle deadline in place of the
// whole-request one (docs/files.md).
import { errorCodes, type FastifyInstance, type FastifyRequest } from 'fastify';
import { OWN_BODY_DEADLINE } from '../common/header-deadline.js';
import type { UploadReceiver } from '../files/upload-receiver.js';
import { parseMultipart } from './multipart-body.js';
import { MULTIPART_TYPE } from './submit-navigation.js';
import { isPublicSubmitUrl } from './submit-urls.js';

/** How the submit routes read multipart bodies. */
export interface MultipartParserOptions {
  /** Largest body without files (SUBMIT_BODY_LIMIT), and the text of one with files. */
  limit: number;
  /** Largest body carrying files (UPLOAD_BODY_LIMIT). */
  uploadLimit: number;
  /** An upload that sends nothing this long is cut (408). */
  idleTimeoutMs: number;
  /** Where the request's files go: undefined when its form takes none. */
  uploadsFor: (request: FastifyRequest) => Promise<UploadReceiver | undefined>;
}

type Marked = { [OWN_BODY_DEADLINE]?: boolean };

export function addMultipartParser(
  fastify: FastifyInstance,
  options: MultipartParserOptions,
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
    payload.pause();
    options
      .uploadsFor(request)
      .catch((error: Error) => {
        // The database away (503): the body is not read.
        payload.resume();
        throw error;
      })
      .then((uploads) => {
        if (uploads !== undefined) {
          (request.raw as Marked)[OWN_BODY_DEADLINE] = true;
        }
        return parseMultipart(
          request.headers,
          payload,
          uploads === undefined
            ? { limit: options.limit }
            : {
                limit: options.uploadLimit,
                textLimit: options.limit,
                uploads,
                idleTimeoutMs: options.idleTimeoutMs,
              },
        );
      })
      .then(
        (body) => done(null, body),
        (error: Error) => {
          // Refused: what is left of the body is read within the usual deadline.
          delete (request.raw as Marked)[OWN_BODY_DEADLINE];
          done(error, undefined);
        },
      );
  });
}
