import { Controller, Get, Param, Res } from '@nestjs/common';
import {
  ApiParam,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiKeyAuth } from '../auth/api-key-auth.decorator.js';
import {
  NoDeadline,
  WithDeadline,
} from '../common/http/deadline.interceptor.js';
import { AccessibleForm } from '../forms/routes/accessible-form.decorator.js';
import type { Form } from '../forms/form.entity.js';
import { FORM_ID_PARAM } from '../forms/routes/form-route.openapi.js';
import { UNAVAILABLE_RESPONSE } from '../submissions/submissions.openapi.js';
import { sendDownload } from './downloads/download-reply.js';
import { DownloadFileDocs } from './files.openapi.js';
import { FilesService } from './files.service.js';
import { Requires } from '../auth/route-access.decorator.js';

/** Key-protected downloads: /api/v1/forms/:id/submissions/:submissionId/files/:fileId */
@ApiTags('submissions')
@ApiKeyAuth()
@ApiParam(FORM_ID_PARAM)
@ApiServiceUnavailableResponse(UNAVAILABLE_RESPONSE)
@WithDeadline()
@Controller('api/v1/forms/:id/submissions/:submissionId/files')
export class FilesController {
  constructor(private readonly files: FilesService) {}

  // No request deadline: a large file takes as long as the client reads.
  @Get(':fileId')
  @Requires('submissions.read')
  @NoDeadline()
  @DownloadFileDocs()
  async download(
    @AccessibleForm() form: Form,
    @Param('submissionId') submissionId: string,
    @Param('fileId') fileId: string,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await sendDownload(
      reply,
      await this.files.open(form, submissionId, fileId),
    );
  }
}
