// The content-type parser of multipart/form-data bodies on the submit routes. It reads
// nothing: the body is handed to the controller as an UnreadMultipart, and read
// (multipart-body.ts) only once the rate limit's guard let the request through, so a
// client over its limit never makes the server parse a byte of it. Any other route
// answers 415 as before. A form that takes files gets its files streamed to storage,
// under UPLOAD_BODY_LIMIT and an idle deadline in place of the whole-request one
// (docs/files.md).
import { errorCodes, type FastifyInstance, type FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { OWN_BODY_DEADLINE } from '../common/http/header-deadline.js';
import type { UploadReceiver } from '../files/uploads/upload-receiver.js';
import { parseMultipart, type MultipartBody } from './multipart-body.js';
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

/**
 * A multipart body as the parser leaves it: not a byte read. The controller reads it with
 * `read()` after the guard; refused before that, the body is never parsed (Node discards
 * what the client still sends once the answer is out).
 */
export class UnreadMultipart {
  constructor(
    private readonly request: FastifyRequest,
    private readonly payload: Readable,
    private readonly options: MultipartParserOptions,
  ) {}

  /** The body, its files (when the form takes files) stored as they arrive. */
  read(): Promise<MultipartBody> {
    const { request, payload, options } = this;
    return options
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
      .catch((error: Error) => {
        // Refused: what is left of the body is read within the usual deadline.
        delete (request.raw as Marked)[OWN_BODY_DEADLINE];
        throw error;
      });
  }
}

export function addMultipartParser(
  fastify: FastifyInstance,
  options: MultipartParserOptions,
): void {
  const largest = Math.max(options.limit, options.uploadLimit);
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
    // Declared larger than any form takes: refused from the headers, before the guard
    // (so it spends nothing, like a JSON body Fastify refuses for its length).
    if (Number(request.headers['content-length']) > largest) {
      payload.resume();
      done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE(), undefined);
      return;
    }
    done(null, new UnreadMultipart(request, payload, options));
  });
}
