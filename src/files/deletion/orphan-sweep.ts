// The "files" background sweep (docs/sweeps.md, docs/files.md): objects older than
// UPLOAD_ORPHAN_AGE_SECONDS without a stored_file row — written for a submission that was
// never committed (a crash between the file and the row, a failed commit whose files could
// not be removed), or left by a deletion that could not reach the storage — are deleted, a
// page of keys at a time, each page's rows looked up by primary key.
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config.js';
import { inBatches } from '../../sweeps/batches.js';
import type { SweepCounts } from '../../sweeps/sweep.js';
import { SweepsService } from '../../sweeps/sweeps.service.js';
import { FILE_STORAGE, type FileStorage } from '../storage/file-storage.js';
import { fileIdOfKey } from '../storage/storage-keys.js';
import { StoredFileRepository } from '../stored-file.repository.js';

@Injectable()
export class OrphanFileSweep implements OnModuleInit {
  constructor(
    private readonly config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly files: StoredFileRepository,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
    private readonly sweeps: SweepsService,
  ) {}

  onModuleInit(): void {
    this.sweeps.register({
      name: 'files',
      run: (signal) => this.sweepOnce(Date.now(), signal),
    });
  }

  /** Deletes every object older than the orphan age at `now` that has no row. */
  async sweepOnce(
    now = Date.now(),
    signal?: AbortSignal,
  ): Promise<SweepCounts> {
    const before = new Date(now - this.config.uploads.orphanAgeSeconds * 1000);
    let after: string | undefined;
    let orphans = 0;
    await inBatches(
      async (limit) => {
        const objects = await this.storage.listOlderThan(before, limit, after);
        if (objects.length === 0) return 0;
        after = objects.at(-1)!.key;
        const ids = objects.flatMap((object) => {
          const id = fileIdOfKey(object.key);
          return id === undefined ? [] : [id];
        });
        const kept = await this.files.existing(ids);
        const gone = objects.filter((object) => {
          const id = fileIdOfKey(object.key);
          return id === undefined || !kept.has(id);
        });
        await this.storage.delete(gone.map((object) => object.key));
        orphans += gone.length;
        return objects.length;
      },
      {
        signal,
        onEventLoop: this.dataSource.options.type === 'better-sqlite3',
      },
    );
    return { files: orphans };
  }
}
