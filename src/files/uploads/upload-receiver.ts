// The file parts of one multipart submission, streamed to storage as they arrive (docs/files.md):
// each is checked against its field (a `file` field, at most `maxFiles`, at most 10 in all),
// typed from its first bytes and its extension, counted, hashed and cut at the field's `maxSize`
// on the way. Nothing is held in memory but the first 4 KB of a file. A refused file, and every
// file of a submission that is not committed, is deleted (discard()).
import { Readable } from 'node:stream';
import {
  FileTooLargeException,
  TemporarilyUnavailableException,
  ValidationFailedException,
} from '../../common/errors/errors.js';
import {
  scanned,
  ScannerUnavailableError,
  type ClamavScan,
  type ClamavScanner,
} from './clamav-scanner.js';
import {
  detectFormat,
  HEAD_BYTES,
  judgeFileType,
  MarkupScanner,
} from './file-type-judgement.js';
import { safeName } from '../../common/values/safe-name.js';
import {
  FileTooLargeError,
  type FileStorage,
} from '../storage/file-storage.js';
import {
  reservedBytes,
  StorageFullError,
  type StorageBudget,
} from '../reservations/storage-reservation.repository.js';
import { fileKey, newFileId } from '../storage/storage-keys.js';
import type { StoredFileRow } from '../stored-file-sql.js';
import { MAX_FILE_NAME_LENGTH } from '../stored-file.entity.js';
import type { FileValue } from '../../submissions/submission.entity.js';

/** What a `file` field allows, with its defaults filled in. */
export interface FileFieldPolicy {
  id: string;
  maxSize: number;
  accept: readonly string[] | undefined;
  maxFiles: number;
  /** The field's label, for the page a visitor's browser shows. */
  label?: string;
}

/** A file written to storage, as `data.<fieldId>` shows it, plus where it lives. */
export interface ReceivedFile {
  id: string;
  fieldId: string;
  name: string;
  size: number;
  type: string;
  sha256: string;
  key: string;
}

export const SCANNER_UNAVAILABLE =
  'Uploaded files cannot be checked for viruses right now, please retry shortly';

/** Files one submission may carry, all fields together. */
export const MAX_FILES = 10;

/** The field id as messages show it (a client's field name may be anything). */
function shown(field: string): string {
  return field.length > 64 ? `${field.slice(0, 64)}…` : field;
}

/** A refusal of one file: 400 naming the field (a visitor's page names it by `label`). */
function refused(
  field: string,
  message: string,
  label?: string,
): ValidationFailedException {
  return new ValidationFailedException(
    [`${shown(field)}: ${message}`],
    [{ field, code: 'TYPE_TEXT', label }],
  );
}

/**
 * A client's file name as its user saw it, cut to what a row keeps on a character
 * boundary. Browsers send `"`, CR and LF in a multipart file name as %22, %0D and %0A (the
 * HTML standard's form encoding), which are read back here; then the safe-name rule
 * drops control characters and direction marks (a CR or LF included).
 */
function keptName(sent: string): string {
  const name = safeName(
    sent.replace(/%(22|0D|0A)/gi, (_, hex: string) =>
      String.fromCharCode(parseInt(hex, 16)),
    ),
  );
  const characters = Array.from(name);
  return characters.length > MAX_FILE_NAME_LENGTH
    ? characters.slice(0, MAX_FILE_NAME_LENGTH).join('')
    : name;
}

export class UploadReceiver {
  /** The stored files by order of arrival (a small file may be stored before a large one). */
  private readonly slots: Array<ReceivedFile | undefined> = [];
  private readonly written: string[] = [];
  private readonly perField = new Map<string, number>();
  private count = 0;
  /** Bytes this upload holds reserved of its account's storage (budget). */
  private reserved = 0;

  constructor(
    private readonly storage: FileStorage,
    readonly formId: string,
    readonly submissionId: string,
    private readonly policies: ReadonlyMap<string, FileFieldPolicy>,
    /** The account's storage (MAX_STORAGE_PER_ACCOUNT); without one, no cap. */
    private readonly budget?: StorageBudget,
    /** clamd, when CLAMAV_URL is set: every file is streamed to it as it is stored. */
    private readonly scanner?: ClamavScanner,
    /** Gives back the client's upload slot (UploadSlots) once the upload is over. */
    private readonly endUpload: () => void = () => undefined,
  ) {}

  /** The files stored, in the order they arrived. */
  get files(): ReceivedFile[] {
    return this.slots.filter((file) => file !== undefined);
  }

  /**
   * Set once the files must stay: their submission is committed, or may have been (a
   * commit that timed out) — the orphan sweep then decides by whether the rows exist.
   */
  kept = false;

  /** The fields that received files. */
  fieldsWithFiles(): Set<string> {
    return new Set(this.files.map((file) => file.fieldId));
  }

  /**
   * What the submission's data shows of its files, by field: one file, or always a list
   * when the field takes more than one.
   */
  dataValues(): Record<string, FileValue | FileValue[]> {
    const values: Record<string, FileValue | FileValue[]> = {};
    for (const file of this.files) {
      const value: FileValue = {
        id: file.id,
        name: file.name,
        size: file.size,
        type: file.type,
        sha256: file.sha256,
      };
      if ((this.policies.get(file.fieldId)?.maxFiles ?? 1) === 1) {
        values[file.fieldId] = value;
      } else {
        const list = values[file.fieldId];
        if (Array.isArray(list)) list.push(value);
        else values[file.fieldId] = [value];
      }
    }
    return values;
  }

  /** The stored_file rows, written in the submission's commit. */
  rows(accountId: string, createdAt: Date): StoredFileRow[] {
    return this.files.map((file) => ({
      id: file.id,
      submissionId: this.submissionId,
      formId: this.formId,
      accountId,
      fieldId: file.fieldId,
      name: file.name,
      size: file.size,
      type: file.type,
      sha256: file.sha256,
      createdAt,
    }));
  }

  /** Whether a field takes files. */
  takesFiles(field: string): boolean {
    return this.policies.has(field);
  }

  /**
   * Stores one file part; resolves with it once it is durable, or with undefined for an
   * empty file input (no file chosen). Rejects with the 400/413 its request answers, the
   * part then read no further.
   */
  async receive(
    field: string,
    stream: Readable,
    filename: string | undefined,
  ): Promise<ReceivedFile | undefined> {
    const policy = this.policies.get(field);
    if (policy === undefined) {
      throw refused(field, 'this field does not take files');
    }
    const slot = this.slots.push(undefined) - 1;
    // A named file counts as it arrives, so one too many is refused before it is read.
    if ((filename ?? '') !== '') this.countFile(field, policy);
    const inspected = this.judgedStream(field, stream, filename ?? '', policy);
    const id = newFileId();
    const key = fileKey(this.formId, this.submissionId, id);
    const scan = await this.startScan();
    let object;
    const maxBytes = policy.maxSize;
    const reservation = { bytes: 0 };
    const source =
      this.budget === undefined
        ? inspected.stream
        : Readable.from(
            reservedBytes(inspected.stream, this.budget, reservation, maxBytes),
            { objectMode: false },
          );
    try {
      object = await this.storage.write(
        key,
        scan
          ? Readable.from(scanned(source, scan), { objectMode: false })
          : source,
        { maxBytes },
      );
    } catch (error) {
      scan?.abort();
      await this.budget?.release(reservation.bytes).catch(() => undefined);
      if (error instanceof ScannerUnavailableError) {
        throw new TemporarilyUnavailableException(SCANNER_UNAVAILABLE);
      }
      if (error instanceof StorageFullError) {
        throw new FileTooLargeException(
          [
            `${shown(field)}: this account's file storage is full (MAX_STORAGE_PER_ACCOUNT)`,
          ],
          [{ field, label: policy.label }],
        );
      }
      if (error instanceof FileTooLargeError) {
        throw new FileTooLargeException(
          [`${shown(field)}: larger than ${policy.maxSize} bytes`],
          [{ field, label: policy.label }],
        );
      }
      throw error;
    }
    // What the file did not use goes back; its size stays reserved until its submission
    // is committed (then a stored file) or dropped (discard).
    await this.budget?.release(reservation.bytes - object.size);
    this.reserved += object.size;
    this.written.push(key);
    if (scan && (await this.verdict(scan)).infected) {
      throw refused(field, 'file rejected', policy.label);
    }
    if (object.size === 0) {
      if ((filename ?? '') === '') {
        // An empty file input: no file chosen. Nothing to keep.
        await this.storage.delete([key]);
        return undefined;
      }
      throw refused(field, `"${inspected.name}" is empty`, policy.label);
    }
    if ((filename ?? '') === '') this.countFile(field, policy);
    const file: ReceivedFile = {
      id,
      fieldId: field,
      name: inspected.name,
      size: object.size,
      type: inspected.type(),
      sha256: object.sha256,
      key,
    };
    this.slots[slot] = file;
    return file;
  }

  /** A scan for the next file, when scanning is on; 503 when clamd cannot be reached. */
  private async startScan(): Promise<ClamavScan | undefined> {
    if (this.scanner === undefined) return undefined;
    return this.scanner.start().catch(() => {
      throw new TemporarilyUnavailableException(SCANNER_UNAVAILABLE);
    });
  }

  private verdict(scan: ClamavScan): ReturnType<ClamavScan['finish']> {
    return scan.finish().catch(() => {
      throw new TemporarilyUnavailableException(SCANNER_UNAVAILABLE);
    });
  }

  private countFile(field: string, policy: FileFieldPolicy): void {
    const count = (this.perField.get(field) ?? 0) + 1;
    this.perField.set(field, count);
    this.count += 1;
    if (count > policy.maxFiles) {
      throw refused(
        field,
        `at most ${policy.maxFiles} ${policy.maxFiles === 1 ? 'file' : 'files'} may be sent`,
        policy.label,
      );
    }
    if (this.count > MAX_FILES) {
      throw new ValidationFailedException([
        `at most ${MAX_FILES} files may be sent with one submission`,
      ]);
    }
  }

  /**
   * Deletes every file written so far unless they are kept (the submission was not
   * committed); either way the upload's reservation of its account's storage ends: kept
   * files count as stored files from their commit on.
   */
  async discard(): Promise<void> {
    const reserved = this.reserved;
    this.reserved = 0;
    try {
      if (this.kept) return;
      const keys = this.written.splice(0);
      this.slots.length = 0;
      this.perField.clear();
      this.count = 0;
      if (keys.length > 0) await this.storage.delete(keys);
    } finally {
      this.endUpload();
      await this.budget?.release(reserved);
    }
  }

  /**
   * The part's bytes as written: held until the first HEAD_BYTES are in (or the part
   * ends), judged, then let through; a text file is scanned for markup to its end.
   */
  private judgedStream(
    field: string,
    source: Readable,
    filename: string,
    policy: FileFieldPolicy,
  ): { stream: Readable; name: string; type: () => string } {
    const name = keptName(filename.trim() === '' ? 'file' : filename);
    let type = 'application/octet-stream';
    async function* judged(): AsyncGenerator<Buffer> {
      const held: Buffer[] = [];
      let heldBytes = 0;
      let scanner: MarkupScanner | undefined;
      let decided = false;
      const decide = async (): Promise<Buffer[]> => {
        const head = Buffer.concat(held).subarray(0, HEAD_BYTES);
        decided = true;
        if (heldBytes === 0) return [];
        const judgement = judgeFileType({
          head,
          detected: await detectFormat(head),
          name,
          accept: policy.accept,
        });
        if (!judgement.ok) throw refused(field, judgement.reason, policy.label);
        type = judgement.type;
        if (judgement.text) scanner = new MarkupScanner();
        return held.splice(0);
      };
      const pass = (chunk: Buffer): Buffer => {
        if (scanner?.push(chunk) === true) {
          throw refused(
            field,
            `"${name}" holds markup, which is not accepted in a text file`,
            policy.label,
          );
        }
        return chunk;
      };
      for await (const chunk of source as AsyncIterable<Buffer>) {
        if (decided) {
          yield pass(chunk);
          continue;
        }
        held.push(chunk);
        heldBytes += chunk.length;
        // The cap applies before the type is known too: never hold more than it.
        if (heldBytes > policy.maxSize) {
          yield* held.splice(0);
          return;
        }
        if (heldBytes >= HEAD_BYTES) {
          for (const part of await decide()) yield pass(part);
        }
      }
      if (!decided) {
        for (const part of await decide()) yield pass(part);
      }
    }
    return {
      stream: Readable.from(judged(), { objectMode: false }),
      name,
      type: () => type,
    };
  }
}
