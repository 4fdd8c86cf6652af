import { Global, Module } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { ClamavScanner } from './clamav-scanner.js';
import { DownloadLinks } from './download-links.js';
import { FileExportLinks } from './file-export-links.js';
import { EXPORT_FILE_LINKS } from '../submissions/export/export-file-links.js';
import { FormChangesModule } from '../forms/form-changes.module.js';
import { FormRepositoryModule } from '../forms/form-repository.module.js';
import { FormsModule } from '../forms/forms.module.js';
import { FileDeletion } from './file-deletion.js';
import { FileLinksController } from './file-links.controller.js';
import { FilesController } from './files.controller.js';
import { FilesService } from './files.service.js';
import { OrphanFileSweep } from './orphan-sweep.js';
import { FILE_STORAGE_PROVIDER } from './storage/file-storage.provider.js';
import { StorageReservations } from './storage-reservations.js';
import { StoredFileRepository } from './stored-file.repository.js';

/** The clamd client when CLAMAV_URL is set, else null. */
export const CLAMAV_SCANNER = Symbol('ClamavScanner');

/**
 * Uploaded files (docs/files.md): the storage, the stored_file rows, downloads, their
 * deletion with submissions and forms, and the orphan sweep. The submit route writes them.
 * Global for EXPORT_FILE_LINKS, which the submissions feature below it injects.
 */
@Global()
@Module({
  imports: [FormsModule, FormChangesModule, FormRepositoryModule],
  controllers: [FilesController, FileLinksController],
  providers: [
    FILE_STORAGE_PROVIDER,
    StoredFileRepository,
    {
      provide: DownloadLinks,
      inject: [AppConfig],
      useFactory: (config: AppConfig) =>
        new DownloadLinks(config.appSecret, config.publicUrl),
    },
    {
      provide: CLAMAV_SCANNER,
      inject: [AppConfig],
      useFactory: (config: AppConfig) =>
        config.uploads.clamavUrl === undefined
          ? null
          : new ClamavScanner(config.uploads.clamavUrl),
    },
    FilesService,
    FileDeletion,
    OrphanFileSweep,
    FileExportLinks,
    { provide: EXPORT_FILE_LINKS, useExisting: FileExportLinks },
    StorageReservations,
  ],
  exports: [
    FILE_STORAGE_PROVIDER,
    StoredFileRepository,
    FilesService,
    DownloadLinks,
    CLAMAV_SCANNER,
    EXPORT_FILE_LINKS,
    StorageReservations,
  ],
})
export class FilesModule {}
