// Files for upload tests: real PNGs of any size (file-type walks PNG chunks, so the bytes
// must be a well-formed PNG, not just its signature), multipart bodies built by hand for
// the cases no client library sends (cut short, hostile names, sent at a pace over a raw
// socket), posted as a script posts them, and what they left: the submission as the API
// lists it, the files on disk.
import { readdir } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { deflateSync } from 'node:zlib';
import type { TestForm } from '../factories/forms.js';
import { request, type HttpResponse } from './http.js';
import { uploadsRoot, type TestApp } from './test-app.js';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** A valid 1×1 PNG of about `size` bytes (padded with a text chunk). */
export function png(size = 0): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0);
  header.writeUInt32BE(1, 4);
  header[8] = 8;
  header[9] = 2;
  const parts = [
    Buffer.from('89504e470d0a1a0a', 'hex'),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.alloc(4))),
  ];
  const base = parts.reduce((sum, part) => sum + part.length, 0) + 24;
  if (size > base) parts.push(chunk('tEXt', Buffer.alloc(size - base, 65)));
  parts.push(chunk('IEND', Buffer.alloc(0)));
  return Buffer.concat(parts);
}

/** A minimal PDF. */
export const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

export const BOUNDARY = 'formgateboundary';
export const MULTIPART_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

export type Part =
  | { name: string; value: string }
  | { name: string; filename: string; bytes: Buffer; type?: string };

/** A multipart/form-data body of these parts (the closing boundary left off when `end` is false). */
export function multipart(parts: Part[], end = true): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    if ('value' in part) {
      chunks.push(
        Buffer.from(
          `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`,
        ),
      );
    } else {
      chunks.push(
        Buffer.from(
          `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: ${part.type ?? 'application/octet-stream'}\r\n\r\n`,
        ),
        part.bytes,
        Buffer.from('\r\n'),
      );
    }
  }
  if (end) chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

/** Posts `parts` to the submit route as a script does (multipart, JSON answers). */
export function postParts(
  t: TestApp,
  formId: string,
  parts: Part[],
  headers: Record<string, string> = {},
): Promise<HttpResponse> {
  return request(`${t.url}/api/submit/${formId}`, {
    body: multipart(parts),
    headers: {
      'content-type': MULTIPART_TYPE,
      accept: 'application/json',
      ...headers,
    },
  });
}

/** The form's newest submission, as GET …/submissions lists it. */
export async function newestSubmission<Data = Record<string, unknown>>(
  t: TestApp,
  form: TestForm,
): Promise<{ id: string; data: Data }> {
  const listed = await request(
    `${t.url}/api/v1/forms/${form.form.id}/submissions?limit=1`,
    { apiKey: form.apiKey },
  );
  expect(listed.status).toBe(200);
  return listed.body.data[0] as { id: string; data: Data };
}

/** A multipart request over a raw socket, its body written by the test at its own pace. */
export interface RawUpload {
  socket: Socket;
  /** Resolves with what the server answered once the connection closed. */
  closed: Promise<{ ms: number; text: string }>;
}

/** Opens a connection and sends the head of a multipart POST of `length` body bytes. */
export function openUpload(
  url: string,
  path: string,
  length: number,
  headers: Record<string, string> = {},
): RawUpload {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  const started = performance.now();
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
  socket.on('error', () => undefined);
  const extra = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: test\r\nContent-Type: ${MULTIPART_TYPE}\r\nContent-Length: ${length}\r\n${extra}\r\n`,
  );
  const closed = new Promise<{ ms: number; text: string }>((resolve) =>
    socket.on('close', () =>
      resolve({ ms: performance.now() - started, text }),
    ),
  );
  return { socket, closed };
}

/** How many files the app's upload directory holds (its STORAGE_URL is a file: one). */
export async function filesOnDisk(t: TestApp): Promise<number> {
  const entries = await readdir(uploadsRoot(t), {
    recursive: true,
    withFileTypes: true,
  }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).length;
}
