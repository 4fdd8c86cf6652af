import {
  BadRequestException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Repository } from 'typeorm';
import { takeTurn } from '../common/event-loop-turns.js';
import type { Form } from '../forms/form.entity.js';
import {
  decodeCursor,
  encodeCursor,
  INVALID_CURSOR,
  type SubmissionPosition,
} from './cursor.js';
import type { ExportFormat } from './dto/export-submissions-query.dto.js';
import {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
} from './dto/list-submissions-query.dto.js';
import type {
  DeletedSubmissionsDto,
  SubmissionDto,
  SubmissionPageDto,
} from './dto/submission.dto.js';
import { csvRow } from './export/csv.js';
import { exportFilename } from './export/export-filename.js';
import {
  csvLine,
  CSV_COLUMNS,
  exportChunks,
  firstBatch,
  keysInOrder,
  ndjsonLine,
  type ExportPlan,
} from './export/submission-export.js';
import { Submission } from './submission.entity.js';
import {
  parseFilters,
  type SubmissionFilterInput,
} from './submission-filters.js';
import {
  ALL_COLUMNS,
  positionOf,
  SubmissionRowReader,
  toData,
  toDate,
  type SubmissionRow,
} from './submission-rows.js';

export {
  EXPORT_BATCH_SIZE,
  EXPORT_CHUNK_CHARS,
  MAX_CSV_COLUMNS,
} from './export/submission-export.js';
export { SEARCH_SCAN_ROWS } from './submission-rows.js';

export const SUBMISSION_NOT_FOUND = 'Submission not found';

/** Rows per statement while bulk-deleting, so no statement holds locks for long. */
export const DELETE_BATCH_SIZE = 1000;

export interface ListSubmissionsQuery extends SubmissionFilterInput {
  limit?: number;
  cursor?: string;
}

export interface ExportSubmissionsQuery extends SubmissionFilterInput {
  format?: ExportFormat;
  /** CSV only: a leading UTF-8 byte order mark, which Excel needs to read UTF-8. */
  bom?: boolean;
}

/** U+FEFF, written as the UTF-8 bytes EF BB BF. */
export const UTF8_BOM = '\uFEFF';

export interface SubmissionExport {
  /** The file, produced batch by batch as it is read; destroy it to stop early. */
  stream: Readable;
  contentType: string;
  filename: string;
}

export interface FormSubmissionStats {
  count: number;
  lastAt: Date | null;
}

const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  ndjson: 'application/x-ndjson; charset=utf-8',
};

/** Listing, reading, deleting and exporting a form's submissions. */
@Injectable()
export class SubmissionsService {
  private readonly reader: SubmissionRowReader;

  constructor(
    @InjectRepository(Submission)
    private readonly submissions: Repository<Submission>,
  ) {
    this.reader = new SubmissionRowReader(submissions);
  }

  /** One page, newest first, of the form's submissions matching the filters. */
  async list(
    form: Form,
    query: ListSubmissionsQuery = {},
  ): Promise<SubmissionPageDto> {
    const filters = parseFilters(query);
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
      throw new BadRequestException(
        `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}`,
      );
    }
    let after: SubmissionPosition | undefined;
    if (query.cursor !== undefined) {
      after = decodeCursor(query.cursor);
      if (!after) throw new BadRequestException(INVALID_CURSOR);
    }
    // One row more than asked tells whether a next page exists, without a COUNT.
    const { rows, scannedThrough } = await this.reader.read({
      formId: form.id,
      filters,
      direction: 'DESC',
      after,
      limit: limit + 1,
    });
    const page = rows.slice(0, limit);
    let next: SubmissionPosition | undefined;
    if (rows.length > limit) next = positionOf(page[limit - 1]);
    else next = scannedThrough;
    return {
      data: page.map((row) => this.map(row)),
      nextCursor: next ? encodeCursor(next) : null,
    };
  }

  async findOne(form: Form, submissionId: string): Promise<SubmissionDto> {
    const row = await this.submissions.findOneBy({
      formId: form.id,
      id: submissionId,
    });
    if (!row) throw new NotFoundException(SUBMISSION_NOT_FOUND);
    return this.map(row);
  }

  async remove(form: Form, submissionId: string): Promise<void> {
    const result = await this.submissions.delete({
      formId: form.id,
      id: submissionId,
    });
    if (!result.affected) throw new NotFoundException(SUBMISSION_NOT_FOUND);
  }

  /**
   * Deletes the form's submissions in [from, to) — all of them without bounds — in
   * batches. Without `to`, submissions that arrive while it runs are kept.
   */
  async removeMany(
    form: Form,
    range: Pick<SubmissionFilterInput, 'from' | 'to'> = {},
  ): Promise<DeletedSubmissionsDto> {
    const filters = parseFilters({ from: range.from, to: range.to });
    filters.to ??= new Date(Date.now() + 1);
    let deleted = 0;
    for (;;) {
      // Each batch is a statement on SQLite's (synchronous) driver: one turn each.
      await takeTurn();
      const ids = (
        await this.reader.rows({
          formId: form.id,
          filters,
          direction: 'ASC',
          limit: DELETE_BATCH_SIZE,
          columns: ['id'],
        })
      ).map((row) => row.id);
      if (ids.length === 0) break;
      const result = await this.submissions
        .createQueryBuilder()
        .delete()
        .from(Submission)
        .where('formId = :formId', { formId: form.id })
        .andWhere('id IN (:...ids)', { ids })
        .execute();
      deleted += result.affected ?? 0;
      if (ids.length < DELETE_BATCH_SIZE) break;
    }
    return { deleted };
  }

  /** Submission count and latest submission time per form (forms without any: count 0). */
  async countByForms(
    formIds: readonly string[],
  ): Promise<Map<string, FormSubmissionStats>> {
    const stats = new Map<string, FormSubmissionStats>();
    for (const id of formIds) stats.set(id, { count: 0, lastAt: null });
    const unique = [...stats.keys()];
    for (let i = 0; i < unique.length; i += 500) {
      const rows = await this.submissions
        .createQueryBuilder('s')
        .select('s.formId', 'formId')
        .addSelect('COUNT(*)', 'count')
        .addSelect('MAX(s.createdAt)', 'lastAt')
        .where('s.formId IN (:...ids)', { ids: unique.slice(i, i + 500) })
        .groupBy('s.formId')
        .getRawMany<{
          formId: string;
          count: number | string;
          lastAt: Date | string | null;
        }>();
      for (const row of rows) {
        stats.set(row.formId, {
          count: Number(row.count),
          lastAt: row.lastAt === null ? null : toDate(row.lastAt),
        });
      }
    }
    return stats;
  }

  /**
   * Opens a streamed export, newest first, with the list's filters. The first batch is
   * read before this resolves, so a database failure still becomes an error response;
   * the rest is read batch by batch as the consumer pulls (keyset queries, never
   * OFFSET), and destroying the stream stops the reading.
   */
  async openExport(
    form: Form,
    query: ExportSubmissionsQuery = {},
  ): Promise<SubmissionExport> {
    const format = query.format ?? 'csv';
    const filters = parseFilters(query);
    let plan: ExportPlan;
    if (format === 'csv') {
      const columns =
        form.fields.length > 0
          ? form.fields.map((field) => field.id)
          : await keysInOrder(this.reader, form.id, filters);
      plan = {
        formId: form.id,
        filters,
        columns: CSV_COLUMNS,
        header:
          (query.bom ? UTF8_BOM : '') + csvRow(['id', 'createdAt', ...columns]),
        encode: (row) => csvLine(row, columns),
      };
    } else {
      plan = {
        formId: form.id,
        filters,
        columns: ALL_COLUMNS,
        header: '',
        encode: ndjsonLine,
      };
    }
    const first = await firstBatch(this.reader, plan);
    return {
      stream: Readable.from(
        exportChunks(this.reader, plan, first),
        // Strings go to the socket as they are (Node encodes them into memory it
        // frees once written, not into Buffers waiting for a GC); a few chunks are
        // read ahead.
        { objectMode: true, highWaterMark: 4 },
      ),
      contentType: CONTENT_TYPES[format],
      filename: exportFilename(form.name, format),
    };
  }

  /** Writes an export into `destination` (e.g. a dashboard response), resolving at the end. */
  async writeExport(
    form: Form,
    query: ExportSubmissionsQuery,
    destination: Writable,
  ): Promise<void> {
    const { stream } = await this.openExport(form, query);
    await pipeline(stream, destination);
  }

  /** The one place a stored row becomes the API's Submission. */
  private map(row: SubmissionRow): SubmissionDto {
    return {
      id: row.id,
      formId: row.formId,
      data: toData(row.data),
      createdAt: toDate(row.createdAt).toISOString(),
      meta: { ip: row.ip, userAgent: row.userAgent, origin: row.origin },
    };
  }
}
