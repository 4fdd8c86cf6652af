import { HttpException } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { ValidationFailedException } from '../common/errors/errors.js';
import {
  fileFieldsOf,
  MAX_FILE_PARTS,
  MAX_PARTS,
  parseMultipart,
  tooManyPartsMessage,
} from './multipart-body.js';

const TYPE = 'multipart/form-data; boundary=B';

function parse(body: string | Buffer, limit = 10_000, type = TYPE) {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  return parseMultipart(
    { 'content-type': type, 'content-length': String(bytes.length) },
    Readable.from([bytes]),
    limit,
  );
}

const part = (name: string, value: string, extra = '') =>
  `--B\r\nContent-Disposition: form-data; name="${name}"${extra}\r\n\r\n${value}\r\n`;

describe('parseMultipart', () => {
  it('gives a null-prototype object of strings, a repeated name as a list', async () => {
    const body = await parse(
      `${part('a', '1')}${part('b', 'x\r\ny')}${part('a', '2')}--B--\r\n`,
    );
    expect(Object.getPrototypeOf(body)).toBeNull();
    expect({ ...body }).toEqual({ a: ['1', '2'], b: 'x\r\ny' });
    expect(fileFieldsOf(body)).toEqual([]);
  });

  it('notes file parts by name, without their content, and skips an empty file input', async () => {
    const body = await parse(
      `${part('cv', 'PDF', '; filename="cv.pdf"')}${part('none', '', '; filename=""')}${part('n', 'v')}--B--\r\n`,
    );
    expect(Object.keys(body)).toEqual(['n']);
    expect(fileFieldsOf(body)).toEqual(['cv']);
  });

  it('takes as many parts as a submission may have keys', async () => {
    const parts = Array.from({ length: MAX_PARTS }, (_, i) =>
      part(`k${i}`, 'v'),
    );
    const body = await parse(`${parts.join('')}--B--\r\n`, 100_000);
    expect(Object.keys(body)).toHaveLength(MAX_PARTS);
  });

  it('stops at the first part beyond, with a 400 naming the limit', async () => {
    const parts = Array.from({ length: 1700 }, (_, i) => part(`k${i}`, 'v'));
    const failure = await parse(`${parts.join('')}--B--\r\n`, 100_000).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ValidationFailedException);
    expect((failure as ValidationFailedException).errors).toEqual([
      tooManyPartsMessage(),
    ]);
    expect(tooManyPartsMessage()).toBe(
      'the submission has more than 120 parts; at most 100 fields and 20 keys starting with "_" are accepted',
    );
  });

  it('refuses more file parts than MAX_FILE_PARTS with the same 400', async () => {
    const files = Array.from({ length: MAX_FILE_PARTS + 1 }, (_, i) =>
      part(`f${i}`, 'x', `; filename="f${i}.txt"`),
    );
    await expect(
      parse(`${files.join('')}--B--\r\n`, 100_000),
    ).rejects.toBeInstanceOf(ValidationFailedException);
  });

  it('refuses a body over the limit with 413', async () => {
    await expect(
      parse(`${part('a', 'x'.repeat(200))}--B--\r\n`, 100),
    ).rejects.toMatchObject({
      statusCode: 413,
      code: 'FST_ERR_CTP_BODY_TOO_LARGE',
    });
  });

  it('answers random bytes with a 400, never anything else', async () => {
    for (let i = 0; i < 50; i += 1) {
      const noise = Buffer.concat([
        Buffer.from(i % 2 === 0 ? '--B\r\n' : ''),
        randomBytes(1 + ((i * 37) % 500)),
      ]);
      try {
        await parse(noise);
      } catch (error) {
        expect(error).toBeInstanceOf(HttpException);
        expect((error as HttpException).getStatus()).toBe(400);
      }
    }
  });
});
