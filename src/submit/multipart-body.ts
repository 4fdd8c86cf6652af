// multipart/form-data bodies (what `new FormData(form)` and `<form enctype="multipart/
// form-data">` send), parsed by @fastify/busboy into the very shape the form-encoded parser
// gives: a null-prototype object of strings, a repeated key becoming a list. The parser
// Fastify runs for them: multipart-parser.ts.
import { BadRequestException } from '@nestjs/common';
import { Busboy, type BusboyInstance } from '@fastify/busboy';
import { errorCodes } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { ValidationFailedException } from '../common/errors.js';
import { MAX_CONTROL_KEYS, MAX_KEYS } from './submission-validator.js';

/** File parts met in a multipart body, by field name; kept out of `Object.keys(body)`. */
export const FILE_FIELDS = Symbol('fileFields');

export type MultipartBody = Record<string, string | string[]> & {
  [FILE_FIELDS]?: string[];
};

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
 * Reads a multipart body of at most `limit` bytes. Text parts become values; a part
 * carrying a file is drained and its field name noted (the submission is then refused
 * with a message naming it), unless it is an empty file input (no file chosen).
 */
export function parseMultipart(
  headers: IncomingHttpHeaders,
  payload: Readable,
  limit: number,
): Promise<MultipartBody> {
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
          // Neither can be longer than the whole body, so nothing is ever cut silently.
          fieldNameSize: limit,
          fieldSize: limit,
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
    let received = 0;
    let settled = false;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      payload.unpipe(parser);
      payload.resume();
      reject(error);
    };

    payload.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) fail(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
    });
    payload.on('error', fail);
    parser.on('field', (name: string, value: string) => {
      if (name === '__proto__') fail(new BadRequestException(FORBIDDEN_KEY));
      else add(body, name, value);
    });
    parser.on(
      'file',
      (name: string, stream: Readable, filename: string | undefined) => {
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
    parser.on('filesLimit', tooMany);
    parser.on('error', (error: Error) => {
      // An empty body is an empty form, as an empty form-encoded body is.
      if (received === 0) return;
      fail(
        new BadRequestException(`${MALFORMED_MULTIPART} (${error.message})`),
      );
    });
    parser.on('finish', () => {
      if (settled) return;
      settled = true;
      if (files.length > 0) body[FILE_FIELDS] = files;
      resolve(body);
    });
    payload.pipe(parser);
  });
}
