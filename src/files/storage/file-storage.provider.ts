import type { Provider } from '@nestjs/common';
import { AppConfig } from '../../config/app-config.js';
import { FILE_STORAGE, type FileStorage } from './file-storage.js';
import { LocalFileStorage } from './local-file-storage.js';

/**
 * The FileStorage STORAGE_URL names (a local root is made on the first upload). The S3 client
 * is loaded only when STORAGE_URL names a bucket.
 */
export const FILE_STORAGE_PROVIDER: Provider = {
  provide: FILE_STORAGE,
  inject: [AppConfig],
  useFactory: async ({
    uploads: { storage },
  }: AppConfig): Promise<FileStorage> => {
    if (storage.kind !== 's3') return new LocalFileStorage(storage.root);
    const { S3FileStorage } = await import('./s3-file-storage.js');
    return new S3FileStorage(storage);
  },
};
