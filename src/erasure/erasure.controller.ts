import {
  Body,
  Controller,
  Get,
  Header,
  HttpCode,
  HttpStatus,
  Post,
  Query,
  StreamableFile,
} from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth, Principal } from '../auth/api-key-auth.decorator.js';
import type { ApiPrincipal } from '../auth/principal.js';
import {
  NoDeadline,
  WithDeadline,
} from '../common/http/deadline.interceptor.js';
import {
  ErasureExportQueryDto,
  ErasureRequestDto,
  ErasureResultDto,
} from './dto/erasure.dto.js';
import { EraseDocs, ExportErasureDocs } from './erasure.openapi.js';
import { ErasureService } from './erasure.service.js';
import { Requires } from '../auth/route-access.decorator.js';

/** A data subject's submissions across the account: erase them, or export them. */
@ApiTags('erasure')
@ApiKeyAuth({ accountKeyOnly: true })
@WithDeadline()
@Controller('api/v1/erasure')
export class ErasureController {
  constructor(private readonly erasure: ErasureService) {}

  @Post()
  @Requires('erasure')
  @HttpCode(HttpStatus.OK)
  @NoDeadline()
  @EraseDocs()
  erase(
    @Principal() principal: ApiPrincipal,
    @Body() body: ErasureRequestDto,
  ): Promise<ErasureResultDto> {
    return this.erasure.erase(
      principal.accountId,
      body.email,
      body.dryRun ?? false,
      principal,
    );
  }

  @Get('export')
  // Reading a person's submissions is an export, open to every role (as it was to
  // read-only keys); erasing them is not.
  @Requires('submissions.export')
  @NoDeadline()
  @Header('Cache-Control', 'no-store')
  @ExportErasureDocs()
  async export(
    @Principal() principal: ApiPrincipal,
    @Query() query: ErasureExportQueryDto,
  ): Promise<StreamableFile> {
    const stream = await this.erasure.openExport(
      principal.accountId,
      query.email,
      principal,
    );
    return new StreamableFile(stream, {
      type: 'application/x-ndjson; charset=utf-8',
      disposition: 'attachment; filename="data-subject-export.ndjson"',
    });
  }
}
