// Signed download links (GET /files/:token): what webhook payloads and emails carry, so a
// recipient fetches a file without an API key for 7 days (docs/files.md). A link that is
// malformed, forged, expired or names a deleted file answers 404 — a page for a browser
// following it from an email, JSON otherwise.
import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  NoDeadline,
  WithDeadline,
} from '../../common/http/deadline.interceptor.js';
import { DownloadLinks } from './download-links.js';
import { sendDownload } from './download-reply.js';
import { FILE_NOT_FOUND, FilesService } from '../files.service.js';
import { FileLinkDocs } from '../files.openapi.js';
import { Public } from '../../auth/route-access.decorator.js';

// Worded for every link that fails, not only an expired one: a forged or mistyped link gets
// the same page, and it must not suggest the link was ever valid.
export const LINK_NOT_VALID_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Download link not valid</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 36rem; margin: 4rem auto; padding: 0 1rem">
<h1>This download link does not work</h1>
<p>The link is not valid: it may be incomplete or mistyped, it may have expired (links work for 7 days after the notification was sent), or the file may have been deleted. The form's owner can download the file from the dashboard.</p>
</body></html>
`;

// Not part of the management API (no key): the links are made by Formgate and only
// followed, and described in /docs beside the key-protected download.
@ApiTags('submissions')
@WithDeadline()
@Public()
@Controller('files')
export class FileLinksController {
  constructor(
    private readonly links: DownloadLinks,
    private readonly files: FilesService,
  ) {}

  @Get(':token')
  @FileLinkDocs()
  @NoDeadline()
  async download(
    @Param('token') token: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const fileId = this.links.verify(token);
    const download =
      fileId === undefined
        ? undefined
        : await this.files.openLinked(fileId).catch((error: unknown) => {
            if ((error as { status?: number }).status === 404) return undefined;
            throw error;
          });
    if (download !== undefined) {
      await sendDownload(reply, download);
      return;
    }
    const wantsPage = /\btext\/html\b/.test(request.headers.accept ?? '');
    void reply
      .code(404)
      .header('cache-control', 'no-store')
      .header('x-content-type-options', 'nosniff');
    await (wantsPage
      ? reply.type('text/html; charset=utf-8').send(LINK_NOT_VALID_PAGE)
      : reply.send({ error: FILE_NOT_FOUND }));
  }
}
