// The OpenAPI description of the file download route.
import { applyDecorators } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiFoundResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  getSchemaPath,
} from '@nestjs/swagger';
import { ErrorDto } from '../common/dto/error.dto.js';

export const DownloadFileDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Download a file of a submission',
      description:
        "The bytes of one uploaded file, always as an attachment (`Content-Type: application/octet-stream`, `X-Content-Type-Options: nosniff`), never rendered inline. The file name is the one the client sent, offered in `filename*` (RFC 6266) without path separators, control characters or direction marks. The file ids are in the submission's `data.<fieldId>`.",
    }),
    ApiParam({
      name: 'submissionId',
      description: 'The submission identifier.',
    }),
    ApiParam({
      name: 'fileId',
      description: 'The file identifier: `id` of a file in `data.<fieldId>`.',
    }),
    ApiOkResponse({
      description: 'The file, as an attachment.',
      headers: {
        'Content-Disposition': {
          description:
            'attachment; filename="<ASCII name>"; filename*=UTF-8\'\'<name>',
          schema: {
            type: 'string',
            example: `attachment; filename="cv.pdf"; filename*=UTF-8''cv.pdf`,
          },
        },
        'X-Content-Type-Options': {
          description: 'Always `nosniff`.',
          schema: { type: 'string', example: 'nosniff' },
        },
      },
      content: {
        'application/octet-stream': {
          schema: { type: 'string', format: 'binary' },
        },
      },
    }),
    ApiFoundResponse({
      description:
        'With files in an S3-compatible store (`STORAGE_URL=s3://…`): a redirect to a presigned URL of the store, valid 60 seconds, that serves the file the same way (attachment, `application/octet-stream`).',
      headers: {
        Location: {
          description: 'The presigned URL.',
          schema: { type: 'string', format: 'uri' },
        },
        'X-Content-Type-Options': {
          description: 'Always `nosniff`.',
          schema: { type: 'string', example: 'nosniff' },
        },
      },
    }),
    ApiNotFoundResponse({
      type: ErrorDto,
      description:
        'No such form, submission or file (or the key does not reach the form).',
      examples: {
        file: { summary: 'unknown file', value: { error: 'File not found' } },
        form: { summary: 'unknown form', value: { error: 'Form not found' } },
      },
    }),
  );

/** The signed link route (GET /files/{token}): public, made by Formgate, only followed. */
export const FileLinkDocs = (): MethodDecorator =>
  applyDecorators(
    ApiExtraModels(ErrorDto),
    ApiOperation({
      summary: 'Download a file through a signed link',
      description:
        "What the `url` of a file in a webhook payload or a notification email points at: `PUBLIC_URL/files/<file id>.<expiry>.<signature>`, an HMAC-SHA256 under a key derived from `APP_SECRET`. No API key: whoever holds the link can download the file until it expires (7 days after the notification was made). Formgate makes these links; there is nothing to build by hand. The answer is the same as the key-protected download's: always an attachment, `application/octet-stream`, `nosniff` (a 302 to a presigned URL with an S3-compatible store).",
    }),
    ApiParam({
      name: 'token',
      description:
        "The link's last path segment, as Formgate wrote it: `<file id>.<expiry>.<signature>` (for example `pgDfzB8l5Ekn7tmM_kNRUw.tperal.THjnVllrRUqiWvpBUYlQYQ`).",
    }),
    ApiOkResponse({
      description: 'The file, as an attachment.',
      content: {
        'application/octet-stream': {
          schema: { type: 'string', format: 'binary' },
        },
      },
    }),
    ApiFoundResponse({
      description:
        'With files in an S3-compatible store: a redirect to a presigned URL of the store, valid 60 seconds.',
      headers: {
        Location: {
          description: 'The presigned URL.',
          schema: { type: 'string', format: 'uri' },
        },
      },
    }),
    ApiNotFoundResponse({
      description:
        'The link is not valid: malformed, forged or expired, or its file was deleted (with its submission, its form, or when `APP_SECRET` changed). JSON, or for a browser (`Accept` naming `text/html`) a short page saying the link does not work.',
      content: {
        'application/json': {
          schema: { $ref: getSchemaPath(ErrorDto) },
          example: { error: 'File not found' },
        },
        'text/html': {
          schema: { type: 'string' },
          example:
            '<!doctype html><html lang="en"><head><title>Download link not valid</title>…</head><body><h1>This download link does not work</h1>…</body></html>',
        },
      },
    }),
  );
