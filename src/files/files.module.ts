import { Global, Module } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { ClamavScanner } from './uploads/clamav-scanner.js';
import { DownloadLinks } from './downloads/download-links.js';
import { FileExportLinkProvider } from './downloads/file-export-link-provider.js';
import { EXPORT_FILE_LINKS } from '../submissions/export/export-file-links.js';
import { FormChangesModule } from '../forms/changes/form-changes.module.js';
import { FormRepositoryModule } from '../forms/form-repository.module.js';
import { FormsModule } from '../forms/forms.module.js';
import { FileDeletionService } from './deletion/file-deletion.service.js';
import { FileLinksController } from './downloads/file-links.controller.js';
import { FilesController } from './files.controller.js';
import { FilesService } from './files.service.js';
import { OrphanFileSweep } from './deletion/orphan-sweep.js';
import { FILE_STORAGE_PROVIDER } from './storage/file-storage.provider.js';
import { StorageReservationRepository } from './reservations/storage-reservation.repository.js';
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
    FileDeletionService,
    OrphanFileSweep,
    FileExportLinkProvider,
    { provide: EXPORT_FILE_LINKS, useExisting: FileExportLinkProvider },
    StorageReservationRepository,
  ],
  exports: [
    FILE_STORAGE_PROVIDER,
    StoredFileRepository,
    FilesService,
    DownloadLinks,
    CLAMAV_SCANNER,
    EXPORT_FILE_LINKS,
    StorageReservationRepository,
  ],
})
export class FilesModule {}
