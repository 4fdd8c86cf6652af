// Files in any S3-compatible store (STORAGE_URL=s3://BUCKET; docs/files.md). A file is
// streamed to the store as it arrives — one PUT for a small file, a multipart upload of
// 5 MiB parts for a larger one (@aws-sdk/lib-storage), one part in flight per upload, so an
// upload holds at most one part in memory — counted and hashed on the way. The store
// acknowledges an object only once it is durable; a failed or oversized upload is aborted
// and whatever reached the key is deleted. Checksums are sent only where the API requires
// them, as stores other than AWS's may not know the newer ones.
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  S3Client,
  type _Object,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { createHash } from 'node:crypto';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { attachmentDisposition } from '../downloads/content-disposition.js';
import {
  FileTooLargeError,
  StoredObjectNotFoundError,
  type FileStorage,
  type ListedObject,
  type WriteOptions,
  type WrittenObject,
} from './file-storage.js';
import { isStorageKey } from './storage-keys.js';

/** The smallest part S3 accepts in a multipart upload. */
const PART_SIZE = 5 * 1024 * 1024;
/** DeleteObjects takes at most this many keys. */
const DELETE_BATCH = 1000;

export interface S3Location {
  bucket: string;
  /** The store's address; the AWS endpoint of `region` when not given. */
  endpoint?: string;
  region: string;
  /** Bucket in the path (most self-hosted stores) rather than in the host name. */
  forcePathStyle: boolean;
}

/**
 * Counts and hashes what passes, failing once more than `maxBytes` went through. (The count
 * is not called `size`: lib-storage would read that as the length of the whole body.)
 */
class CountingHash extends Transform {
  bytes = 0;
  private readonly hash = createHash('sha256');

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(
    chunk: Buffer,
    _encoding: BufferEncoding,
    done: TransformCallback,
  ): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) {
      done(new FileTooLargeError(this.maxBytes));
      return;
    }
    this.hash.update(chunk);
    done(null, chunk);
  }

  digest(): string {
    return this.hash.digest('hex');
  }
}

function isNotFound(error: unknown): boolean {
  if (error instanceof NoSuchKey) return true;
  const name = (error as { name?: string }).name;
  const status = (error as { $metadata?: { httpStatusCode?: number } })
    .$metadata?.httpStatusCode;
  return name === 'NoSuchKey' || name === 'NotFound' || status === 404;
}

export class S3FileStorage implements FileStorage {
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(location: S3Location, client?: S3Client) {
    this.bucket = location.bucket;
    // Credentials come from the standard chain (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY).
    this.client =
      client ??
      new S3Client({
        region: location.region,
        endpoint: location.endpoint,
        forcePathStyle: location.forcePathStyle,
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      });
  }

  private checked(key: string): string {
    if (!isStorageKey(key)) throw new Error(`not a storage key: ${key}`);
    return key;
  }

  async write(
    key: string,
    source: Readable,
    { maxBytes }: WriteOptions,
  ): Promise<WrittenObject> {
    const Key = this.checked(key);
    const counter = new CountingHash(maxBytes);
    // The source's end or failure reaches the counter; a source that closes before it
    // ends is a truncated file.
    let failure: Error | undefined;
    const fail = (error: Error) => {
      failure ??= error;
      counter.destroy(failure);
    };
    source.on('error', fail);
    source.on('close', () => {
      if (!source.readableEnded) {
        fail(new Error('the upload ended before the file did'));
      }
    });
    counter.on('error', (error: Error) => {
      failure ??= error;
      source.destroy();
    });
    if (source.errored) fail(source.errored);
    else source.pipe(counter);
    const upload = new Upload({
      client: this.client,
      params: {
        Bucket: this.bucket,
        Key,
        Body: counter,
        ContentType: 'application/octet-stream',
      },
      partSize: PART_SIZE,
      queueSize: 1,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      await this.delete([Key]).catch(() => undefined);
      throw failure ?? error;
    }
    if (failure !== undefined) {
      await this.delete([Key]).catch(() => undefined);
      throw failure;
    }
    return { size: counter.bytes, sha256: counter.digest() };
  }

  async read(key: string): Promise<Readable> {
    try {
      const object = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: this.checked(key) }),
      );
      return object.Body as Readable;
    } catch (error) {
      if (isNotFound(error)) throw new StoredObjectNotFoundError(key);
      throw error;
    }
  }

  async delete(keys: readonly string[]): Promise<void> {
    for (let start = 0; start < keys.length; start += DELETE_BATCH) {
      const batch = keys.slice(start, start + DELETE_BATCH).map((key) => ({
        Key: this.checked(key),
      }));
      if (batch.length === 1) {
        await this.client.send(
          new DeleteObjectCommand({ Bucket: this.bucket, Key: batch[0].Key }),
        );
        continue;
      }
      const answer = await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: batch, Quiet: true },
        }),
      );
      const failed = (answer.Errors ?? []).filter(
        (entry) => entry.Code !== 'NoSuchKey',
      );
      if (failed.length > 0) {
        throw new Error(
          `could not delete ${failed.length} stored object(s): ${failed[0].Code ?? 'error'}`,
        );
      }
    }
  }

  async deletePrefix(prefix: string): Promise<void> {
    this.checked(prefix.endsWith('/') ? prefix.slice(0, -1) : prefix);
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: prefix,
          ContinuationToken: token,
          MaxKeys: DELETE_BATCH,
        }),
      );
      const keys = (page.Contents ?? []).flatMap((object) =>
        object.Key === undefined ? [] : [object.Key],
      );
      if (keys.length > 0) await this.delete(keys.filter(isStorageKey));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
  }

  async listOlderThan(
    before: Date,
    limit: number,
    after?: string,
  ): Promise<ListedObject[]> {
    const found: ListedObject[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          StartAfter: token === undefined ? after : undefined,
          ContinuationToken: token,
          MaxKeys: DELETE_BATCH,
        }),
      );
      for (const object of page.Contents ?? []) {
        if (found.length >= limit) return found;
        const listed = olderObject(object, before);
        if (listed !== undefined) found.push(listed);
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token !== undefined && found.length < limit);
    return found;
  }

  presignedUrl(
    key: string,
    filename: string,
    seconds: number,
  ): Promise<string> {
    return getSignedUrl(
      this.client,
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: this.checked(key),
        ResponseContentDisposition: attachmentDisposition(filename),
        ResponseContentType: 'application/octet-stream',
      }),
      { expiresIn: seconds },
    );
  }
}

/** A listed object last changed before `before` under a key of ours, else undefined. */
function olderObject(object: _Object, before: Date): ListedObject | undefined {
  if (object.Key === undefined || !isStorageKey(object.Key)) return undefined;
  const modifiedAt = object.LastModified;
  if (modifiedAt === undefined || modifiedAt >= before) return undefined;
  return { key: object.Key, modifiedAt };
}
