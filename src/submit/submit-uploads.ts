// Where the files of a multipart submission go: the form's `file` fields, from the same
// cache the submit route reads, decide whether its body's files are streamed to storage
// (and under which submission id they are stored) before the route runs, and the budget of
// the form's account's storage (MAX_STORAGE_PER_ACCOUNT) its files reserve.
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';
import {
  FILE_STORAGE,
  type FileStorage,
} from '../files/storage/file-storage.js';
import { StorageReservationRepository } from '../files/reservations/storage-reservation.repository.js';
import { UploadReceiver } from '../files/uploads/upload-receiver.js';
import { CLAMAV_SCANNER } from '../files/files.module.js';
import type { ClamavScanner } from '../files/uploads/clamav-scanner.js';
import { AppConfig } from '../config/app-config.js';
import { newUlid } from '../common/values/ulid.js';
import { UploadSlots } from '../files/uploads/upload-slots.js';
import { rateLimitBucket } from '../rate-limit/client-ip.js';
import { FormConfigCache } from './form-config.cache.js';
import { FORM_ID } from './submit.service.js';

export function submitUploads(
  app: NestFastifyApplication,
): (request: FastifyRequest) => Promise<UploadReceiver | undefined> {
  const forms = app.get(FormConfigCache);
  const reservations = app.get(StorageReservationRepository, { strict: false });
  const cap = app.get(AppConfig).uploads.maxStoragePerAccount;
  const storage = app.get<symbol, FileStorage>(FILE_STORAGE, {
    strict: false,
  });
  const scanner =
    app.get<symbol, ClamavScanner | null>(CLAMAV_SCANNER, { strict: false }) ??
    undefined;
  const slots = new UploadSlots(app.get(AppConfig).uploads.concurrencyPerIp);
  return async (request) => {
    const { formId } = (request.params ?? {}) as { formId?: unknown };
    if (typeof formId !== 'string' || !FORM_ID.test(formId)) return undefined;
    const form = await forms.get(formId);
    if (form?.files == null) return undefined;
    // Before a byte of the body is read; back once the upload is over, however it ends.
    const release = slots.take(rateLimitBucket(request.ip));
    request.raw.once('close', release);
    // Each file reserves its bytes of the account's cap as they arrive: uploads racing
    // each other never pass it together.
    return new UploadReceiver(
      storage,
      form.id,
      newUlid(Date.now()),
      form.files,
      await reservations.budgetOf(form.accountId, cap).catch((error) => {
        release();
        throw error;
      }),
      scanner,
      release,
    );
  };
}
