import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileTooLargeError } from './file-storage.js';
import { LocalFileStorage } from './local-file-storage.js';
import { fileKey } from './storage-keys.js';
import {
  breakTwoWrites,
  writeFourDeleteTwo,
} from '../../../test/support/file-storage-cases.js';

async function text(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

/** Every file under `dir`, as paths relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort();
}

describe('LocalFileStorage', () => {
  let root: string;
  let storage: LocalFileStorage;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'formgate-files-'));
    storage = new LocalFileStorage(root);
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('writes a stream under its key, counting its size and SHA-256', async () => {
    const key = fileKey('form1', 'sub1', 'file1');
    const body = 'hello '.repeat(50_000);
    const written = await storage.write(
      key,
      Readable.from([
        Buffer.from(body.slice(0, 1000)),
        Buffer.from(body.slice(1000)),
      ]),
      { maxBytes: 1_000_000 },
    );
    expect(written).toEqual({
      size: body.length,
      sha256: createHash('sha256').update(body).digest('hex'),
    });
    expect(await readFile(join(root, 'forms/form1/sub1/file1'), 'utf8')).toBe(
      body,
    );
    expect(await text(await storage.read(key))).toBe(body);
    expect(await filesUnder(root)).toEqual(['forms/form1/sub1/file1']);
  });

  it('refuses a stream past its byte cap and keeps nothing of it', async () => {
    const source = new PassThrough();
    const writing = storage.write(fileKey('f', 's', 'big'), source, {
      maxBytes: 10,
    });
    source.write(Buffer.alloc(8));
    source.write(Buffer.alloc(8));
    await expect(writing).rejects.toBeInstanceOf(FileTooLargeError);
    expect(await filesUnder(root)).toEqual([]);
    // The source is left to its owner, who may still drain it.
    expect(source.destroyed).toBe(false);
  });

  it('keeps nothing when the source fails or stops before its end', async () => {
    await breakTwoWrites(storage);
    expect(await filesUnder(root)).toEqual([]);
  });

  it('accepts only keys it made, so nothing can land outside its root', async () => {
    for (const key of [
      '../escape',
      'forms/../../x',
      '/etc/passwd',
      'a/./b',
      'a\\b',
      '',
    ]) {
      await expect(
        storage.write(key, Readable.from(['x']), { maxBytes: 10 }),
      ).rejects.toThrow('not a storage key');
    }
    await expect(storage.read('../secret')).rejects.toThrow(
      'not a storage key',
    );
    expect(await readdir(root)).toEqual([]);
  });

  it('answers a missing object as not found, and deletes objects and whole forms', async () => {
    await writeFourDeleteTwo(storage);
    expect(await filesUnder(root)).toEqual(['forms/f1/s2/c', 'forms/f2/s3/d']);
    expect(await readdir(join(root, 'forms/f1'))).toEqual(['s2']);
    await storage.deletePrefix('forms/f1/');
    expect(await filesUnder(root)).toEqual(['forms/f2/s3/d']);
  });

  it('lists objects older than a date in key order, a page at a time', async () => {
    const keys = [
      fileKey('a', 's', 'x1'),
      fileKey('a', 's', 'x2'),
      fileKey('a-b', 's', 'y'),
      fileKey('b', 's', 'z'),
    ];
    for (const key of keys) {
      await storage.write(key, Readable.from(['.']), { maxBytes: 10 });
    }
    const old = new Date(Date.now() - 7200_000);
    for (const key of keys.slice(0, 3)) await utimes(join(root, key), old, old);
    const cutoff = new Date(Date.now() - 3600_000);
    const first = await storage.listOlderThan(cutoff, 2);
    const second = await storage.listOlderThan(cutoff, 2, first.at(-1)!.key);
    const listed = [...first, ...second].map((object) => object.key);
    expect(listed.sort()).toEqual(keys.slice(0, 3).sort());
    expect(new Set(listed).size).toBe(3);
    expect(await storage.listOlderThan(cutoff, 10, second.at(-1)!.key)).toEqual(
      [],
    );
  });
});
