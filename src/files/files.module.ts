import { Module } from '@nestjs/common';
import { FormChangesModule } from '../forms/form-changes.module.js';
import { FormRepositoryModule } from '../forms/form-repository.module.js';
import { FormsModule } from '../forms/forms.module.js';
import { FileDeletion } from './file-deletion.js';
import { FilesController } from './files.controller.js';
import { FilesService } from './files.service.js';
import { OrphanFileSweep } from './orphan-sweep.js';
import { FILE_STORAGE_PROVIDER } from './storage/file-storage.provider.js';
import { StoredFileRepository } from './stored-file.repository.js';

/**
 * Uploaded files (docs/files.md): the storage, the stored_file rows, downloads, their
 * deletion with submissions and forms, and the orphan sweep. The submit route writes them.
 */
@Module({
  imports: [FormsModule, FormChangesModule, FormRepositoryModule],
  controllers: [FilesController],
  providers: [
    FILE_STORAGE_PROVIDER,
    StoredFileRepository,
    FilesService,
    FileDeletion,
    OrphanFileSweep,
  ],
  exports: [FILE_STORAGE_PROVIDER, StoredFileRepository, FilesService],
})
export class FilesModule {}
