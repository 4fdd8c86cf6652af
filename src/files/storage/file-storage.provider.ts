import type { Provider } from '@nestjs/common';
import { AppConfig } from '../../config/app-config.js';
import { FILE_STORAGE, type FileStorage } from './file-storage.js';
import { LocalFileStorage } from './local-file-storage.js';
import { S3FileStorage } from './s3-file-storage.js';

/** The FileStorage STORAGE_URL names (a local root is made on the first upload). */
export const FILE_STORAGE_PROVIDER: Provider = {
  provide: FILE_STORAGE,
  inject: [AppConfig],
  useFactory: ({ uploads: { storage } }: AppConfig): FileStorage =>
    storage.kind === 's3'
      ? new S3FileStorage(storage)
      : new LocalFileStorage(storage.root),
};
