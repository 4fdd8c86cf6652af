import type { FastifyReply } from 'fastify';
import { attachmentDisposition } from './content-disposition.js';
import type { Download } from '../files.service.js';

/**
 * Sends a download as the API and the dashboard both do: always an attachment, never
 * sniffed, never cached; the bytes, or a 302 to where the store serves them.
 */
export async function sendDownload(
  reply: FastifyReply,
  download: Download,
): Promise<void> {
  void reply
    .header('content-disposition', attachmentDisposition(download.file.name))
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store');
  if ('redirect' in download) {
    await reply.redirect(download.redirect, 302);
    return;
  }
  await reply
    .header('content-type', 'application/octet-stream')
    .header('content-length', String(download.file.size))
    .send(download.stream);
}
