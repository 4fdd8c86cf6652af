import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  HttpStatus,
  Patch,
  Post,
  Put,
} from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth, Principal } from '../auth/api-key-auth.decorator.js';
import type { ApiPrincipal } from '../auth/principal.js';
import { keyExpiryOf } from '../accounts/key-expiry.js';
import { AccessibleForm } from './routes/accessible-form.decorator.js';
import { CreateFormDto } from './dto/create-form.dto.js';
import type { Form } from './form.entity.js';
import {
  ApiKeyResponseDto,
  CreatedFormResponseDto,
  FormListResponseDto,
  FormResponseDto,
} from './dto/form-response.dto.js';
import { PatchFormDto } from './dto/patch-form.dto.js';
import { RegenerateKeyDto } from './dto/regenerate-key.dto.js';
import { UpdateFormDto } from './dto/update-form.dto.js';
import { FormsService } from './forms.service.js';
import { WithDeadline } from '../common/http/deadline.interceptor.js';
import {
  ListFormsDocs,
  CreateFormDocs,
  GetFormDocs,
  ReplaceFormDocs,
  PatchFormDocs,
  DeleteFormDocs,
  RegenerateFormKeyDocs,
} from './forms.openapi.js';
import { Requires } from '../auth/route-access.decorator.js';

@ApiTags('forms')
@ApiKeyAuth()
@WithDeadline()
@Controller('api/v1/forms')
export class FormsController {
  constructor(private readonly forms: FormsService) {}

  @Get()
  @Requires('forms.read')
  @ListFormsDocs()
  async list(
    @Principal() principal: ApiPrincipal,
  ): Promise<FormListResponseDto> {
    return { data: await this.forms.list(principal) };
  }

  @Post()
  @Requires('forms.write')
  @HttpCode(HttpStatus.CREATED)
  @CreateFormDocs()
  create(
    @Principal() principal: ApiPrincipal,
    @Body() body: CreateFormDto,
  ): Promise<CreatedFormResponseDto> {
    return this.forms.createForPrincipal(principal, body);
  }

  @Get(':id')
  @Requires('forms.read')
  @GetFormDocs()
  get(@AccessibleForm() form: Form): Promise<FormResponseDto> {
    return this.forms.describe(form);
  }

  @Put(':id')
  @Requires('forms.write')
  @ReplaceFormDocs()
  replace(
    @Principal() principal: ApiPrincipal,
    @AccessibleForm() form: Form,
    @Body() body: UpdateFormDto,
  ): Promise<FormResponseDto> {
    return this.forms.replaceForm(form, body, principal);
  }

  @Patch(':id')
  @Requires('forms.write')
  @PatchFormDocs()
  patch(
    @Principal() principal: ApiPrincipal,
    @AccessibleForm() form: Form,
    @Body() body: PatchFormDto,
  ): Promise<FormResponseDto> {
    return this.forms.patch(form, body, principal);
  }

  @Delete(':id')
  @Requires('forms.delete')
  @HttpCode(HttpStatus.NO_CONTENT)
  @DeleteFormDocs()
  remove(
    @Principal() principal: ApiPrincipal,
    @AccessibleForm() form: Form,
  ): Promise<void> {
    return this.forms.remove(form, principal);
  }

  @Post(':id/api-key')
  @Requires('keys.manage')
  @HttpCode(HttpStatus.OK)
  @RegenerateFormKeyDocs()
  async regenerateKey(
    @Principal() principal: ApiPrincipal,
    @AccessibleForm() form: Form,
    @Body() body: RegenerateKeyDto,
  ): Promise<ApiKeyResponseDto> {
    return {
      apiKey: await this.forms.regenerateKey(
        form,
        principal,
        body.graceSeconds ?? 0,
        keyExpiryOf(principal),
      ),
    };
  }
}
