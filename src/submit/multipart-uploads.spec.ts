// Multipart bodies with files, read into a real local storage directory.
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { HttpException } from '@nestjs/common';
import { LocalFileStorage } from '../files/storage/local-file-storage.js';
import {
  UploadReceiver,
  type FileFieldPolicy,
} from '../files/uploads/upload-receiver.js';
import { parseMultipart, uploadsOf } from './multipart-body.js';

const TYPE = 'multipart/form-data; boundary=B';
import { png } from '../../test/support/files.js';

const PNG = png();

const text = (name: string, value: string) =>
  Buffer.from(
    `--B\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
const file = (name: string, filename: string, bytes: Buffer) =>
  Buffer.concat([
    Buffer.from(
      `--B\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    bytes,
    Buffer.from('\r\n'),
  ]);
const END = Buffer.from('--B--\r\n');

function policy(
  id: string,
  rest: Partial<FileFieldPolicy> = {},
): [string, FileFieldPolicy] {
  return [
    id,
    { id, maxSize: 100_000, accept: undefined, maxFiles: 1, ...rest },
  ];
}

/** Every file under `dir`, relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1));
}

async function failure(promise: Promise<unknown>): Promise<HttpException> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(HttpException);
  return error as HttpException;
}

describe('parseMultipart with files', () => {
  let root: string;
  let receiver: UploadReceiver;

  const parse = (chunks: Buffer[] | Readable, idleTimeoutMs?: number) => {
    const payload = Array.isArray(chunks) ? Readable.from(chunks) : chunks;
    return parseMultipart({ 'content-type': TYPE }, payload, {
      limit: 1_000_000,
      textLimit: 1000,
      uploads: receiver,
      idleTimeoutMs,
    });
  };

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'formgate-multipart-'));
    receiver = new UploadReceiver(
      new LocalFileStorage(root),
      'form1',
      'sub1',
      new Map([
        policy('cv', { maxSize: 2000 }),
        policy('photos', { accept: ['image/*'], maxFiles: 2 }),
        policy('notes', { accept: ['.csv'] }),
      ]),
    );
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('stores each file as it arrives, with its size, SHA-256 and judged type', async () => {
    const bytes = png(9000);
    const body = await parse([
      text('name', 'Ada'),
      file('photos', '../../etc/photo.png', bytes),
      file('photos', 'second.png', PNG),
      END,
    ]);
    expect(Object.keys(body)).toEqual(['name']);
    expect(body.name).toBe('Ada');
    const files = uploadsOf(body)!.files;
    expect(files.map(({ key: _key, id: _id, ...rest }) => rest)).toEqual([
      {
        fieldId: 'photos',
        name: 'photo.png',
        size: bytes.length,
        type: 'image/png',
        sha256: createHash('sha256').update(bytes).digest('hex'),
      },
      {
        fieldId: 'photos',
        name: 'second.png',
        size: PNG.length,
        type: 'image/png',
        sha256: createHash('sha256').update(PNG).digest('hex'),
      },
    ]);
    expect((await filesUnder(root)).sort()).toEqual(
      files.map((stored) => `forms/form1/sub1/${stored.id}`).sort(),
    );
    expect(await readFile(join(root, files[0].key))).toEqual(bytes);
  });

  it('answers 413 past the field maxSize and keeps nothing', async () => {
    const error = await failure(
      parse([
        file('photos', 'ok.png', PNG),
        file('cv', 'big.png', png(3000)),
        END,
      ]),
    );
    expect(error.getStatus()).toBe(413);
    expect(error).toMatchObject({ errors: ['cv: larger than 2000 bytes'] });
    expect(await filesUnder(root)).toEqual([]);
  });

  it('refuses a file for a field that takes none, HTML named .png, and an empty file, naming the field', async () => {
    const cases: Array<[Buffer, string]> = [
      [file('name', 'a.png', PNG), 'name: this field does not take files'],
      [
        file('photos', 'cat.png', Buffer.from('<html><script>x</script>')),
        'photos: the type of "cat.png" is not recognised from its content',
      ],
      [file('cv', 'empty.pdf', Buffer.alloc(0)), 'cv: "empty.pdf" is empty'],
      [
        file(
          'notes',
          'a.csv',
          Buffer.concat([Buffer.alloc(5000, 97), Buffer.from('<script>')]),
        ),
        'notes: "a.csv" holds markup, which is not accepted in a text file',
      ],
    ];
    for (const [part, message] of cases) {
      const error = await failure(
        parse([file('photos', 'first.png', PNG), part, END]),
      );
      expect(error.getStatus()).toBe(400);
      expect(error).toMatchObject({ errors: [message] });
      expect(await filesUnder(root)).toEqual([]);
    }
  });

  it('skips an empty file input and refuses more files than a field allows', async () => {
    const body = await parse([file('cv', '', Buffer.alloc(0)), END]);
    expect(uploadsOf(body)!.files).toEqual([]);
    const error = await failure(
      parse([
        file('photos', 'a.png', PNG),
        file('photos', 'b.png', PNG),
        file('photos', 'c.png', PNG),
        END,
      ]),
    );
    expect(error).toMatchObject({
      errors: ['photos: at most 2 files may be sent'],
    });
    expect(await filesUnder(root)).toEqual([]);
  });

  it('answers a body cut in the middle of a file with 400 and keeps nothing', async () => {
    const whole = file(
      'photos',
      'a.png',
      Buffer.concat([PNG, Buffer.alloc(9000, 1)]),
    );
    const error = await failure(
      parse([file('cv', 'cv.png', PNG), whole.subarray(0, 6000)]),
    );
    expect(error.getStatus()).toBe(400);
    expect(error.message).toContain('not valid multipart/form-data');
    expect(await filesUnder(root)).toEqual([]);
  });

  it('cuts a body that stops sending (408) and keeps nothing', async () => {
    const payload = new PassThrough();
    const parsing = parse(payload, 200);
    payload.write(file('cv', 'cv.png', PNG));
    payload.write(file('photos', 'a.png', PNG).subarray(0, 150));
    const error = await failure(parsing);
    expect(error.getStatus()).toBe(408);
    expect(await filesUnder(root)).toEqual([]);
  });
});
