// Files go with what they belong to: a submission's rows are deleted in its deletion's
// transaction and its objects right after
// (submissions/deletion/submission-deletion.service.ts, the one path of deletion, retention
// included); a deleted form's objects as soon as this instance hears of the deletion (its
// rows went with it, ON DELETE CASCADE). Whatever a failure leaves behind has no row, and
// the orphan sweep deletes it.
import {
  Inject,
  Injectable,
  Logger,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { FormChangesService } from '../../forms/changes/form-changes.service.js';
import { FormRepository } from '../../forms/form.repository.js';
import {
  SubmissionDeletionService,
  type SubmissionDependent,
} from '../../submissions/deletion/submission-deletion.service.js';
import { FILE_STORAGE, type FileStorage } from '../storage/file-storage.js';
import { formPrefix } from '../storage/storage-keys.js';
import { StoredFileRepository } from '../stored-file.repository.js';

@Injectable()
export class FileDeletionService
  implements SubmissionDependent, OnModuleInit, OnModuleDestroy
{
  readonly name = 'files';
  private readonly logger = new Logger('FileDeletion');
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly deletion: SubmissionDeletionService,
    private readonly files: StoredFileRepository,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
    private readonly changes: FormChangesService,
    private readonly forms: FormRepository,
  ) {}

  onModuleInit(): void {
    this.deletion.register(this);
    this.unsubscribe = this.changes.subscribe((change) => {
      if (change.kind !== 'changed') return;
      void this.removeIfFormGone(change.formId);
    });
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }

  async deleteWith(
    manager: EntityManager,
    formId: string,
    submissionIds: readonly string[],
  ): Promise<void> {
    await this.files.deleteOfSubmissions(manager, formId, submissionIds);
  }

  async afterDelete(
    formId: string,
    submissionIds: readonly string[],
  ): Promise<void> {
    for (const submissionId of submissionIds) {
      await this.storage.deletePrefix(`${formPrefix(formId)}${submissionId}/`);
    }
  }

  /** After a form changed: when it no longer exists, its objects go. */
  private async removeIfFormGone(formId: string): Promise<void> {
    try {
      if ((await this.forms.summaries([formId])).has(formId)) return;
      await this.storage.deletePrefix(formPrefix(formId));
    } catch (error) {
      this.logger.warn(
        `Could not delete the files of deleted form ${formId}: ${(error as Error).message}`,
      );
    }
  }
}
