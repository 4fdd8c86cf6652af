import { HttpException } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { fileFieldsOf, parseMultipart } from './multipart-body.js';

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
