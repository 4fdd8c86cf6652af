import {
  Body,
  Controller,
  Delete,
  Get,
  Header,
  HttpCode,
  HttpStatus,
  Param,
  Patch,
  Post,
  Query,
  StreamableFile,
} from '@nestjs/common';
import {
  ApiExtraModels,
  ApiNotFoundResponse,
  ApiParam,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import { ApiKeyAuth, Principal } from '../auth/api-key-auth.decorator.js';
import type { ApiPrincipal } from '../auth/principal.js';
import {
  BulkResultDto,
  BulkSubmissionsDto,
} from './dto/bulk-submissions.dto.js';
import { actorOf } from './inbox/inbox-actor.js';
import { InboxApiService } from './inbox/inbox-api.service.js';
import {
  NoDeadline,
  WithDeadline,
} from '../common/http/deadline.interceptor.js';
import { AccessibleForm } from '../forms/routes/accessible-form.decorator.js';
import type { Form } from '../forms/form.entity.js';
import { ExportSubmissionsQueryDto } from './dto/export-submissions-query.dto.js';
import { ListSubmissionsQueryDto } from './dto/list-submissions-query.dto.js';
import {
  DeletedSubmissionsDto,
  SubmissionDto,
  SubmissionPageDto,
} from './dto/submission.dto.js';
import { SubmissionRangeQueryDto } from './dto/submission-range-query.dto.js';
import { UpdateSubmissionDto } from './dto/update-submission.dto.js';
import { SubmissionsService } from './submissions.service.js';
import {
  FORM_ID_PARAM,
  FORM_NOT_FOUND_RESPONSE,
} from '../forms/routes/form-route.openapi.js';
import {
  UNAVAILABLE_RESPONSE,
  ListSubmissionsDocs,
  ExportSubmissionsDocs,
  GetSubmissionDocs,
  DeleteSubmissionDocs,
  DeleteSubmissionsDocs,
  FileSubmissionDocs,
  BulkSubmissionsDocs,
} from './submissions.openapi.js';
import { Requires } from '../auth/route-access.decorator.js';

/** Key-protected submissions management: /api/v1/forms/:id/submissions… */

@ApiTags('submissions')
@ApiKeyAuth()
@ApiExtraModels(SubmissionDto)
@ApiParam(FORM_ID_PARAM)
@ApiNotFoundResponse(FORM_NOT_FOUND_RESPONSE)
@ApiServiceUnavailableResponse(UNAVAILABLE_RESPONSE)
@WithDeadline()
@Controller('api/v1/forms/:id/submissions')
export class SubmissionsController {
  constructor(
    private readonly submissions: SubmissionsService,
    private readonly inbox: InboxApiService,
  ) {}

  @Get()
  @Requires('submissions.read')
  @ListSubmissionsDocs()
  async list(
    @AccessibleForm() form: Form,
    @Query() query: ListSubmissionsQueryDto,
  ): Promise<SubmissionPageDto> {
    return this.submissions.list(form, query);
  }

  // Declared before ':submissionId' so "export" is never read as a submission id.
  @Get('export')
  @Requires('submissions.export')
  @NoDeadline()
  @Header('Cache-Control', 'no-store')
  @ExportSubmissionsDocs()
  async export(
    @Principal() principal: ApiPrincipal,
    @AccessibleForm() form: Form,
    @Query() query: ExportSubmissionsQueryDto,
  ): Promise<StreamableFile> {
    const file = await this.submissions.openExport(form, query, principal);
    return new StreamableFile(file.stream, {
      type: file.contentType,
      disposition: `attachment; filename="${file.filename}"`,
    });
  }

  @Get(':submissionId')
  @Requires('submissions.read')
  @GetSubmissionDocs()
  async findOne(
    @AccessibleForm() form: Form,
    @Param('submissionId') submissionId: string,
  ): Promise<SubmissionDto> {
    return this.submissions.findOne(form, submissionId);
  }

  @Post('bulk')
  @Requires('submissions.work')
  @HttpCode(HttpStatus.OK)
  @NoDeadline()
  @BulkSubmissionsDocs()
  async bulk(
    @AccessibleForm() form: Form,
    @Principal() principal: ApiPrincipal,
    @Body() body: BulkSubmissionsDto,
  ): Promise<BulkResultDto> {
    return this.inbox.bulk(form, body, actorOf(principal));
  }

  @Patch(':submissionId')
  @Requires('submissions.work')
  @FileSubmissionDocs()
  async update(
    @AccessibleForm() form: Form,
    @Principal() principal: ApiPrincipal,
    @Param('submissionId') submissionId: string,
    @Body() body: UpdateSubmissionDto,
  ): Promise<SubmissionDto> {
    return this.inbox.update(
      form,
      submissionId,
      body,
      actorOf(principal),
      principal,
    );
  }

  @Delete(':submissionId')
  @Requires('submissions.delete')
  @HttpCode(HttpStatus.NO_CONTENT)
  @DeleteSubmissionDocs()
  async remove(
    @Principal() principal: ApiPrincipal,
    @AccessibleForm() form: Form,
    @Param('submissionId') submissionId: string,
  ): Promise<void> {
    await this.submissions.remove(form, submissionId, principal);
  }

  @Delete()
  @Requires('submissions.delete')
  @NoDeadline()
  @DeleteSubmissionsDocs()
  async removeMany(
    @Principal() principal: ApiPrincipal,
    @AccessibleForm() form: Form,
    @Query() query: SubmissionRangeQueryDto,
  ): Promise<DeletedSubmissionsDto> {
    return this.submissions.removeMany(form, query, principal);
  }
}
