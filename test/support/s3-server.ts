// An S3-compatible server on loopback (s3rver, keeping objects in a temporary directory),
// with one bucket: what STORAGE_URL=s3://… talks to in the tests. It enforces no size limit
// of its own, so every limit a test sees is Formgate's.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

export interface S3Server {
  endpoint: string;
  bucket: string;
  /** The environment that points Formgate at this server. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export const S3_TEST_CREDENTIALS = {
  AWS_ACCESS_KEY_ID: 'S3RVER',
  AWS_SECRET_ACCESS_KEY: 'S3RVER',
};

export async function startS3Server(
  bucket = 'formgate-files',
): Promise<S3Server> {
  const directory = await mkdtemp(join(tmpdir(), 'formgate-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: {
      STORAGE_URL: `s3://${bucket}`,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_FORCE_PATH_STYLE: 'true',
      ...S3_TEST_CREDENTIALS,
    },
    close: async () => {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** A client of the server, as the tests' own eyes on the bucket. */
export function s3Client(s3: S3Server): S3Client {
  return new S3Client({
    region: 'us-east-1',
    endpoint: s3.endpoint,
    forcePathStyle: true,
    credentials: {
      accessKeyId: S3_TEST_CREDENTIALS.AWS_ACCESS_KEY_ID,
      secretAccessKey: S3_TEST_CREDENTIALS.AWS_SECRET_ACCESS_KEY,
    },
  });
}

/** Every key in `bucket`, straight from the server, sorted. */
export async function keysInBucket(
  client: S3Client,
  bucket: string,
): Promise<string[]> {
  const page = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
  return (page.Contents ?? []).map((object) => object.Key ?? '').sort();
}
