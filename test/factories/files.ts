import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  FILE_STORAGE,
  type FileStorage,
} from '../../src/files/storage/file-storage.js';
import { fileKey, newFileId } from '../../src/files/storage/storage-keys.js';
import { StoredFile } from '../../src/files/stored-file.entity.js';
import type { TestApp } from '../support/test-app.js';

/** Stores a file of a submission as an upload would: its object, then its row. */
export async function storeFile(
  t: TestApp,
  input: {
    formId: string;
    submissionId: string;
    accountId: string;
    name?: string;
    fieldId?: string;
    bytes?: Buffer;
    type?: string;
  },
): Promise<StoredFile> {
  const bytes = input.bytes ?? Buffer.from('hello, file\n');
  const id = newFileId();
  const storage = t.app.get<symbol, FileStorage>(FILE_STORAGE, {
    strict: false,
  });
  await storage.write(
    fileKey(input.formId, input.submissionId, id),
    Readable.from([bytes]),
    { maxBytes: bytes.length },
  );
  return t.dataSource.getRepository(StoredFile).save({
    id,
    submissionId: input.submissionId,
    formId: input.formId,
    accountId: input.accountId,
    fieldId: input.fieldId ?? 'attachment',
    name: input.name ?? 'notes.txt',
    size: bytes.length,
    type: input.type ?? 'text/plain',
    sha256: createHash('sha256').update(bytes).digest('hex'),
    createdAt: new Date(),
  });
}
