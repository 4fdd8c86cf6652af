// Files on local disk (STORAGE_URL=file:<directory>). A file is written under a temporary
// name in `<root>/partial/`, flushed to the disk (fsync), then renamed to its key and its
// directory flushed too: an object under a key is always whole, and a crash leaves at most
// a partial file, which the orphan sweep deletes like any object without a row.
import { createHash, randomBytes } from 'node:crypto';
import { constants, type Dirent } from 'node:fs';
import {
  mkdir,
  open,
  readdir,
  rename,
  rm,
  rmdir,
  stat,
  unlink,
} from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import {
  FileTooLargeError,
  StoredObjectNotFoundError,
  type FileStorage,
  type ListedObject,
  type WriteOptions,
  type WrittenObject,
} from './file-storage.js';
import { isStorageKey } from './storage-keys.js';

const PARTIAL_DIR = 'partial';
/** Bytes gathered before a write to disk. */
const WRITE_BYTES = 256 * 1024;

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/**
 * Reads `source` chunk by chunk, waiting for `onChunk` before the next (backpressure),
 * until it ends. On a failure it stops reading and leaves the source to its owner.
 */
function drainInto(
  source: Readable,
  onChunk: (chunk: Buffer) => Promise<void>,
): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    let done = false;
    let writing = false;
    let ended = false;
    const finish = (error?: Error) => {
      if (done) return;
      done = true;
      source.off('data', onData);
      source.off('end', onEnd);
      source.off('error', finish);
      source.off('close', onClose);
      if (error) reject(error);
      else resolvePromise();
    };
    const onEnd = () => {
      ended = true;
      if (!writing) finish();
    };
    const onClose = () => {
      if (!ended) finish(new Error('the upload ended before the file did'));
    };
    const onData = (chunk: Buffer | string) => {
      source.pause();
      writing = true;
      onChunk(typeof chunk === 'string' ? Buffer.from(chunk) : chunk).then(
        () => {
          writing = false;
          if (ended) finish();
          else if (!done) source.resume();
        },
        (error: Error) => finish(error),
      );
    };
    if (source.errored !== null) {
      finish(source.errored);
      return;
    }
    if (source.destroyed) {
      finish(new Error('the upload ended before the file did'));
      return;
    }
    source.on('data', onData);
    source.on('end', onEnd);
    source.on('error', finish);
    source.on('close', onClose);
    source.resume();
  });
}

async function syncDirectory(path: string): Promise<void> {
  const handle = await open(path, constants.O_RDONLY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export class LocalFileStorage implements FileStorage {
  readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  /** The path of a key, refusing anything that is not a key or would leave the root. */
  private pathOf(key: string): string {
    if (!isStorageKey(key)) throw new Error(`not a storage key: ${key}`);
    const path = resolve(this.root, key);
    if (!path.startsWith(this.root + sep)) {
      throw new Error(`key outside the storage root: ${key}`);
    }
    return path;
  }

  async write(
    key: string,
    source: Readable,
    { maxBytes }: WriteOptions,
  ): Promise<WrittenObject> {
    const target = this.pathOf(key);
    // Until drainInto listens, an error of the source is only recorded (source.errored).
    const ignore = () => undefined;
    source.on('error', ignore);
    const partialDir = join(this.root, PARTIAL_DIR);
    await mkdir(partialDir, { recursive: true }).catch((error: Error) => {
      source.off('error', ignore);
      throw error;
    });
    const partial = join(partialDir, randomBytes(12).toString('base64url'));
    const handle = await open(partial, 'wx', 0o600).catch((error: Error) => {
      source.off('error', ignore);
      throw error;
    });
    const hash = createHash('sha256');
    let size = 0;
    let closed = false;
    // Chunks are gathered into writes of WRITE_BYTES: a write per socket chunk would cost
    // a system call and a turn of the loop for every few kilobytes.
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const flush = async () => {
      const chunks = pending;
      pending = [];
      pendingBytes = 0;
      let written = 0;
      const total = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
      while (written < total) {
        const { bytesWritten } = await handle.writev(
          written === 0 ? chunks : [Buffer.concat(chunks).subarray(written)],
        );
        written += bytesWritten;
      }
    };
    try {
      await drainInto(source, async (chunk) => {
        size += chunk.length;
        if (size > maxBytes) throw new FileTooLargeError(maxBytes);
        hash.update(chunk);
        pending.push(chunk);
        pendingBytes += chunk.length;
        if (pendingBytes >= WRITE_BYTES) await flush();
      });
      if (pendingBytes > 0) await flush();
      source.off('error', ignore);
      await handle.sync();
      closed = true;
      await handle.close();
      await mkdir(dirname(target), { recursive: true });
      await rename(partial, target);
      await syncDirectory(dirname(target));
      return { size, sha256: hash.digest('hex') };
    } catch (error) {
      source.off('error', ignore);
      if (!closed) await handle.close().catch(() => undefined);
      await unlink(partial).catch(() => undefined);
      throw error;
    }
  }

  async read(key: string): Promise<Readable> {
    try {
      const handle = await open(this.pathOf(key), 'r');
      return handle.createReadStream();
    } catch (error) {
      if (isMissing(error)) throw new StoredObjectNotFoundError(key);
      throw error;
    }
  }

  async delete(keys: readonly string[]): Promise<void> {
    const parents = new Set<string>();
    for (const key of keys) {
      const path = this.pathOf(key);
      await unlink(path).catch((error: unknown) => {
        if (!isMissing(error)) throw error;
      });
      parents.add(dirname(path));
    }
    // A submission's directory goes with its last file (a form's stays until the form goes).
    for (const parent of parents) {
      if (parent === join(this.root, PARTIAL_DIR)) continue;
      await rmdir(parent).catch(() => undefined);
    }
  }

  async deletePrefix(prefix: string): Promise<void> {
    const trimmed = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
    await rm(this.pathOf(trimmed), { recursive: true, force: true });
  }

  async listOlderThan(
    before: Date,
    limit: number,
    after?: string,
  ): Promise<ListedObject[]> {
    const found: ListedObject[] = [];
    await this.walk('', before, limit, after, found);
    return found;
  }

  /**
   * Visits the tree in key order (a directory sorts as its name plus "/", as its keys
   * do), skipping every directory whose keys all sort before `after`.
   */
  private async walk(
    dirKey: string,
    before: Date,
    limit: number,
    after: string | undefined,
    found: ListedObject[],
  ): Promise<void> {
    let entries: Dirent[];
    try {
      entries = await readdir(dirKey === '' ? this.root : this.pathOf(dirKey), {
        withFileTypes: true,
      });
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    const sortKey = (entry: Dirent) =>
      entry.isDirectory() ? `${entry.name}/` : entry.name;
    entries.sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : 1));
    for (const entry of entries) {
      if (found.length >= limit) return;
      const key = dirKey === '' ? entry.name : `${dirKey}/${entry.name}`;
      if (!isStorageKey(key)) continue;
      if (entry.isDirectory()) {
        const prefix = `${key}/`;
        if (
          after !== undefined &&
          prefix < after &&
          !after.startsWith(prefix)
        ) {
          continue;
        }
        await this.walk(key, before, limit, after, found);
      } else if (entry.isFile() && (after === undefined || key > after)) {
        const info = await stat(this.pathOf(key)).catch(() => undefined);
        if (info !== undefined && info.mtime < before) {
          found.push({ key, modifiedAt: info.mtime });
        }
      }
    }
  }
}
