import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  HttpStatus,
  Param,
  Patch,
  Post,
} from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth, Principal } from '../../auth/api-key-auth.decorator.js';
import type { ApiPrincipal } from '../../auth/principal.js';
import { Requires } from '../../auth/route-access.decorator.js';
import { WithDeadline } from '../../common/http/deadline.interceptor.js';
import {
  CreateLabelDto,
  LabelDto,
  LabelListDto,
  UpdateLabelDto,
} from '../dto/label.dto.js';
import {
  CreateLabelDocs,
  DeleteLabelDocs,
  ListLabelsDocs,
  UpdateLabelDocs,
} from './inbox.openapi.js';
import { LabelsService } from './labels.service.js';

/** The account's labels (docs/inbox.md): read by every role, changed with `submissions.work`. */
@ApiTags('labels')
@ApiKeyAuth({ accountKeyOnly: true })
@WithDeadline()
@Controller('api/v1/account/labels')
export class LabelsController {
  constructor(private readonly labels: LabelsService) {}

  @Get()
  @Requires('submissions.read')
  @ListLabelsDocs()
  async list(@Principal() principal: ApiPrincipal): Promise<LabelListDto> {
    return { data: await this.labels.list(principal.accountId) };
  }

  @Post()
  @Requires('submissions.work')
  @CreateLabelDocs()
  async create(
    @Principal() principal: ApiPrincipal,
    @Body() body: CreateLabelDto,
  ): Promise<LabelDto> {
    return this.labels.create(principal.accountId, body, principal);
  }

  @Patch(':labelId')
  @Requires('submissions.work')
  @UpdateLabelDocs()
  async update(
    @Principal() principal: ApiPrincipal,
    @Param('labelId') labelId: string,
    @Body() body: UpdateLabelDto,
  ): Promise<LabelDto> {
    return this.labels.update(principal.accountId, labelId, body, principal);
  }

  @Delete(':labelId')
  @Requires('submissions.work')
  @HttpCode(HttpStatus.NO_CONTENT)
  @DeleteLabelDocs()
  async remove(
    @Principal() principal: ApiPrincipal,
    @Param('labelId') labelId: string,
  ): Promise<void> {
    await this.labels.remove(principal.accountId, labelId, principal);
  }
}
