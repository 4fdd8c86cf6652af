// How every download answers: the bytes as an attachment that no browser renders
// (octet-stream, nosniff, RFC 6266 name), or a 302 to the store's presigned URL, which
// serves them the same way.
import type { FastifyReply } from 'fastify';
import { attachmentDisposition } from './content-disposition.js';
import type { Download } from './files.service.js';

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
