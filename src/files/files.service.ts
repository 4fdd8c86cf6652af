import { Inject, Injectable, NotFoundException } from '@nestjs/common';
import type { Readable } from 'node:stream';
import type { Form } from '../forms/form.entity.js';
import {
  FILE_STORAGE,
  StoredObjectNotFoundError,
  type FileStorage,
} from './storage/file-storage.js';
import { fileKey, isStorageKey } from './storage/storage-keys.js';
import type { StoredFileRow } from './stored-file-sql.js';
import { StoredFileRepository } from './stored-file.repository.js';

export const FILE_NOT_FOUND = 'File not found';

/** What a download answers: the bytes here, or where a store serves them. */
export type Download =
  | { file: StoredFileRow; stream: Readable }
  | { file: StoredFileRow; redirect: string };

/** Seconds a store's signed download URL is valid. */
export const PRESIGNED_SECONDS = 60;

@Injectable()
export class FilesService {
  constructor(
    private readonly files: StoredFileRepository,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
  ) {}

  /**
   * A file of a submission of a form the caller reaches: 404 "File not found" for any id
   * that is not one (another form's file included).
   */
  async open(
    form: Form,
    submissionId: string,
    fileId: string,
  ): Promise<Download> {
    if (!isStorageKey(submissionId) || !isStorageKey(fileId)) {
      throw new NotFoundException(FILE_NOT_FOUND);
    }
    const file = await this.files.findOne(form.id, submissionId, fileId);
    if (file === null) throw new NotFoundException(FILE_NOT_FOUND);
    return this.serve(file);
  }

  /**
   * The file a signed link names (DownloadLinks verified it): 404 "File not found" when it
   * is gone (its submission deleted since the link was sent).
   */
  async openLinked(fileId: string): Promise<Download> {
    const file = await this.files.findById(fileId);
    if (file === null) throw new NotFoundException(FILE_NOT_FOUND);
    return this.serve(file);
  }

  private async serve(file: StoredFileRow): Promise<Download> {
    const key = fileKey(file.formId, file.submissionId, file.id);
    if (this.storage.presignedUrl) {
      const redirect = await this.storage.presignedUrl(
        key,
        file.name,
        PRESIGNED_SECONDS,
      );
      return { file, redirect };
    }
    try {
      return { file, stream: await this.storage.read(key) };
    } catch (error) {
      if (error instanceof StoredObjectNotFoundError) {
        throw new NotFoundException(FILE_NOT_FOUND);
      }
      throw error;
    }
  }
}
