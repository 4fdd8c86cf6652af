// What every FileStorage must do alike, shared by the local-disk and S3 specs: each spec
// runs these steps against its storage, then checks what is left its own way (files on
// disk, keys in the bucket).
import { PassThrough, Readable } from 'node:stream';
import { expect } from 'vitest';
import {
  StoredObjectNotFoundError,
  type FileStorage,
} from '../../src/files/storage/file-storage.js';
import { fileKey } from '../../src/files/storage/storage-keys.js';

/**
 * A missing object is not found; four objects are written in two forms, then two of them
 * and one that never was are deleted. Left: forms/f1/s2/c and forms/f2/s3/d.
 */
export async function writeFourDeleteTwo(storage: FileStorage): Promise<void> {
  await expect(storage.read(fileKey('f', 's', 'none'))).rejects.toBeInstanceOf(
    StoredObjectNotFoundError,
  );
  for (const [form, sub, file] of [
    ['f1', 's1', 'a'],
    ['f1', 's1', 'b'],
    ['f1', 's2', 'c'],
    ['f2', 's3', 'd'],
  ]) {
    await storage.write(fileKey(form, sub, file), Readable.from([file]), {
      maxBytes: 10,
    });
  }
  await storage.delete([
    fileKey('f1', 's1', 'a'),
    fileKey('f1', 's1', 'b'),
    fileKey('f1', 's1', 'gone'),
  ]);
}

/** Two writes whose sources break — one fails, one stops before its end — both refused. */
export async function breakTwoWrites(storage: FileStorage): Promise<void> {
  const failing = new PassThrough();
  const first = storage.write(fileKey('f', 's', 'a'), failing, {
    maxBytes: 100,
  });
  failing.write('abc');
  failing.destroy(new Error('connection reset'));
  await expect(first).rejects.toThrow('connection reset');
  const cut = new PassThrough();
  const second = storage.write(fileKey('f', 's', 'b'), cut, {
    maxBytes: 100,
  });
  cut.write('abc');
  cut.destroy();
  await expect(second).rejects.toThrow('ended before the file did');
}
