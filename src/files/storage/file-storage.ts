// Where uploaded files' bytes live, behind one small interface (docs/files.md): local disk
// today; any store that can write a stream under a key, read it back, delete it and list
// what is old fits. Keys are `forms/<formId>/<submissionId>/<fileId>` (storage-keys.ts),
// never a client's file name.
import type { Readable } from 'node:stream';

/** What a completed write counted on the way. */
export interface WrittenObject {
  size: number;
  /** SHA-256 of the bytes, hex. */
  sha256: string;
}

export interface WriteOptions {
  /** More bytes than this: the write fails with FileTooLargeError and nothing is kept. */
  maxBytes: number;
}

/** An object the orphan sweep may look at. */
export interface ListedObject {
  key: string;
  modifiedAt: Date;
}

/** The stream carried more bytes than the write allowed. */
export class FileTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`larger than ${maxBytes} bytes`);
    this.name = 'FileTooLargeError';
  }
}

/** No object under that key. */
export class StoredObjectNotFoundError extends Error {
  constructor(key: string) {
    super(`no stored object ${key}`);
    this.name = 'StoredObjectNotFoundError';
  }
}

export interface FileStorage {
  /**
   * Writes `source` under `key`, counting and hashing on the way, and resolves once the
   * object is durable (it survives a crash of the process and of the machine). On any
   * failure — the source failing or ending early, more than `maxBytes`, a disk error —
   * it rejects and leaves nothing under the key; the source is then destroyed.
   */
  write(
    key: string,
    source: Readable,
    options: WriteOptions,
  ): Promise<WrittenObject>;
  /** The object's bytes; StoredObjectNotFoundError when there is none. */
  read(key: string): Promise<Readable>;
  /** Deletes the objects; a key with nothing under it is not an error. */
  delete(keys: readonly string[]): Promise<void>;
  /** Deletes every object whose key starts with `prefix` (a whole form's files). */
  deletePrefix(prefix: string): Promise<void>;
  /**
   * Objects (finished or not) last changed before `before`, a page at a time: at most
   * `limit` of them with keys after `after`, in key order.
   */
  listOlderThan(
    before: Date,
    limit: number,
    after?: string,
  ): Promise<ListedObject[]>;
  /**
   * A URL that serves the object for `seconds` as an attachment named `filename`, for
   * stores that can sign one; undefined where the service streams the bytes itself.
   */
  presignedUrl?(
    key: string,
    filename: string,
    seconds: number,
  ): Promise<string>;
}

/** The injection token of the configured FileStorage. */
export const FILE_STORAGE = Symbol('FileStorage');
