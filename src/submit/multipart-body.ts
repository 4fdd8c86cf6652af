// multipart/form-data bodies (what `new FormData(form)` and `<form enctype="multipart/
// form-data">` send), parsed by @fastify/busboy into the very shape the form-encoded parser
// gives: a null-prototype object of strings, a repeated key becoming a list; files go to
// storage as they arrive (files/uploads/upload-receiver.ts). The parser Fastify runs for them:
// multipart-parser.ts.
import { BadRequestException } from '@nestjs/common';
import { Busboy, type BusboyInstance } from '@fastify/busboy';
import { errorCodes } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import {
  BodyTimeoutException,
  ValidationFailedException,
} from '../common/errors/errors.js';
import {
  MAX_FILES,
  type ReceivedFile,
  type UploadReceiver,
} from '../files/uploads/upload-receiver.js';
import { MAX_CONTROL_KEYS, MAX_KEYS } from './submission-validator.js';

/** File parts met in a multipart body, by field name; kept out of `Object.keys(body)`. */
export const FILE_FIELDS = Symbol('fileFields');

/** The files a multipart body carried to storage, when its form takes files. */
export const UPLOADS = Symbol('uploads');

export type MultipartBody = Record<string, string | string[]> & {
  [FILE_FIELDS]?: string[];
  [UPLOADS]?: UploadReceiver;
};

/** How a multipart body is read. */
export interface MultipartOptions {
  /** Largest body in bytes (413 beyond). */
  limit: number;
  /** Largest sum of the text parts, when it is less than `limit` (bodies with files). */
  textLimit?: number;
  /** Where file parts go, when the form takes files; without, they are drained and noted. */
  uploads?: UploadReceiver;
  /** With uploads: the body is cut (408) after this long without a byte. */
  idleTimeoutMs?: number;
}

export const UPLOAD_IDLE_MESSAGE = 'The request took too long to arrive';

/**
 * How long an upload body may take in all: Apache's mod_reqtimeout rule for request
 * bodies (`body=20,MinRate=500`) — 20 s, and 1 s more for every 500 bytes received. A
 * body dripping a byte a second is cut after about 20 s; an honest 1 MB/s upload earns
 * 2,000 s a second. Past it: 408, the connection closed, nothing kept.
 */
export const UPLOAD_BODY_SECONDS = 20;
export const UPLOAD_MIN_BYTES_PER_SECOND = 500;
export const UPLOAD_TOO_SLOW_MESSAGE =
  'The upload arrived too slowly: after 20 seconds it must keep up 500 bytes a second';

export const MALFORMED_MULTIPART =
  'Request body is not valid multipart/form-data';
const FORBIDDEN_KEY =
  'Request body contains a forbidden key (__proto__ or constructor)';

/**
 * Most parts one multipart body may have: as many keys as a submission may carry (data
 * keys and control keys). Parsing stops at the first part beyond, so a body of thousands
 * of tiny parts costs what one of this many does.
 */
export const MAX_PARTS = MAX_KEYS + MAX_CONTROL_KEYS;
/** Most file parts (each would be refused; the uploads feature may allow some). */
export const MAX_FILE_PARTS = 10;

export function tooManyPartsMessage(): string {
  return `the submission has more than ${MAX_PARTS} parts; at most ${MAX_KEYS} fields and ${MAX_CONTROL_KEYS} keys starting with "_" are accepted`;
}

/** The files `body` carried to storage, if it came from a multipart post with files. */
export function uploadsOf(body: unknown): UploadReceiver | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  return (body as MultipartBody)[UPLOADS];
}

/** The names of the file parts of `body`, if it came from a multipart post. */
export function fileFieldsOf(body: unknown): readonly string[] {
  if (typeof body !== 'object' || body === null) return [];
  return (body as MultipartBody)[FILE_FIELDS] ?? [];
}

function add(body: MultipartBody, name: string, value: string): void {
  const previous = body[name];
  if (previous === undefined) body[name] = value;
  else if (Array.isArray(previous)) previous.push(value);
  else body[name] = [previous, value];
}

/**
 * Reads a multipart body of at most `limit` bytes. Text parts become values. A part
 * carrying a file goes to `uploads` (stored as it arrives) when the form takes files;
 * otherwise it is drained and its field name noted (the submission is then refused with
 * a message naming it), unless it is an empty file input (no file chosen). On any failure
 * the files already stored are deleted before the promise rejects.
 */
export function parseMultipart(
  headers: IncomingHttpHeaders,
  payload: Readable,
  limitOrOptions: number | MultipartOptions,
): Promise<MultipartBody> {
  const options =
    typeof limitOrOptions === 'number'
      ? { limit: limitOrOptions }
      : limitOrOptions;
  const { limit, uploads } = options;
  const textLimit = Math.min(options.textLimit ?? limit, limit);
  return new Promise((resolve, reject) => {
    const declared = Number(headers['content-length']);
    if (declared > limit) {
      payload.resume();
      reject(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      return;
    }
    let parser: BusboyInstance;
    try {
      parser = Busboy({
        headers: headers as IncomingHttpHeaders & { 'content-type': string },
        defCharset: 'utf8',
        limits: {
          // Neither can be longer than the text allowed, so nothing is ever cut silently.
          fieldNameSize: textLimit,
          fieldSize: textLimit,
          parts: MAX_PARTS,
          fields: MAX_PARTS,
          files: MAX_FILE_PARTS,
        },
      });
    } catch {
      payload.resume();
      reject(new BadRequestException(`${MALFORMED_MULTIPART} (no boundary)`));
      return;
    }
    const body = Object.create(null) as MultipartBody;
    const files: string[] = [];
    /** File parts being stored, and their streams (ended early on a failure). */
    const pending: Array<Promise<ReceivedFile | undefined>> = [];
    const streams = new Set<Readable>();
    let received = 0;
    let textBytes = 0;
    let settled = false;
    let idle: NodeJS.Timeout | undefined;
    let slow: NodeJS.Timeout | undefined;
    const started = Date.now();
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(idle);
      clearTimeout(slow);
      payload.unpipe(parser);
      payload.resume();
      if (uploads === undefined) {
        reject(error);
        return;
      }
      for (const stream of streams) stream.destroy(error);
      void Promise.allSettled(pending)
        .then(() => uploads.discard())
        .catch(() => undefined) // what is left has no row: the orphan sweep's
        .then(() => reject(error));
    };
    const armIdle = () => {
      if (uploads === undefined || options.idleTimeoutMs === undefined) return;
      clearTimeout(idle);
      idle = setTimeout(
        () => fail(new BodyTimeoutException(UPLOAD_IDLE_MESSAGE)),
        options.idleTimeoutMs,
      );
      idle.unref();
    };
    armIdle();
    // One timer for the whole-body deadline, moved on only when it fires (not per chunk).
    const armDeadline = (ms: number) => {
      slow = setTimeout(() => {
        const left =
          started +
          (UPLOAD_BODY_SECONDS + received / UPLOAD_MIN_BYTES_PER_SECOND) *
            1000 -
          Date.now();
        if (left > 0) armDeadline(left);
        else fail(new BodyTimeoutException(UPLOAD_TOO_SLOW_MESSAGE));
      }, ms);
      slow.unref();
    };
    if (uploads !== undefined) armDeadline(UPLOAD_BODY_SECONDS * 1000);

    payload.on('data', (chunk: Buffer) => {
      received += chunk.length;
      armIdle();
      if (received > limit) fail(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
    });
    payload.on('error', fail);
    parser.on('field', (name: string, value: string) => {
      textBytes += name.length + value.length;
      if (name === '__proto__') fail(new BadRequestException(FORBIDDEN_KEY));
      else if (textBytes > textLimit) {
        fail(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      } else add(body, name, value);
    });
    parser.on(
      'file',
      (name: string, stream: Readable, filename: string | undefined) => {
        if (uploads !== undefined) {
          streams.add(stream);
          // The part itself failing is the body being malformed (cut short), not a fault.
          // Listened to for good: a part that failed may be destroyed once more by fail().
          let partError: Error | undefined;
          stream.on('error', (error: Error) => {
            partError ??= error;
          });
          const stored = uploads.receive(name, stream, filename);
          pending.push(stored);
          stored.then(
            () => streams.delete(stream),
            (error: Error) => {
              streams.delete(stream);
              fail(
                error === partError
                  ? new BadRequestException(
                      `${MALFORMED_MULTIPART} (${error.message})`,
                    )
                  : error,
              );
            },
          );
          return;
        }
        let size = 0;
        stream.on('data', (chunk: Buffer) => (size += chunk.length));
        stream.on('end', () => {
          if (size > 0 || (filename !== undefined && filename !== '')) {
            files.push(name.length > 64 ? `${name.slice(0, 64)}…` : name);
          }
        });
      },
    );
    const tooMany = () =>
      fail(new ValidationFailedException([tooManyPartsMessage()]));
    parser.on('partsLimit', tooMany);
    parser.on('fieldsLimit', tooMany);
    parser.on('filesLimit', () =>
      uploads === undefined
        ? tooMany()
        : fail(
            new ValidationFailedException([
              `at most ${MAX_FILES} files may be sent with one submission`,
            ]),
          ),
    );
    parser.on('error', (error: Error) => {
      // An empty body is an empty form, as an empty form-encoded body is.
      if (received === 0) return;
      fail(
        new BadRequestException(`${MALFORMED_MULTIPART} (${error.message})`),
      );
    });
    parser.on('finish', () => {
      if (settled) return;
      // Every file is durable before the body counts as read.
      void Promise.all(pending).then(
        () => {
          if (settled) return;
          settled = true;
          clearTimeout(idle);
          clearTimeout(slow);
          if (files.length > 0) body[FILE_FIELDS] = files;
          if (uploads !== undefined) body[UPLOADS] = uploads;
          resolve(body);
        },
        () => undefined, // fail() has answered
      );
    });
    payload.pipe(parser);
  });
}
