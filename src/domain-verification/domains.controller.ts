import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  HttpStatus,
  Param,
  Post,
} from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth, Principal } from '../auth/api-key-auth.decorator.js';
import type { ApiPrincipal } from '../auth/principal.js';
import { DomainsService } from './domains.service.js';
import { AccessibleForm } from '../forms/routes/accessible-form.decorator.js';
import type { Form } from '../forms/form.entity.js';
import { AddDomainDto } from './dto/add-domain.dto.js';
import {
  DomainListResponseDto,
  DomainResponseDto,
} from './dto/domain-response.dto.js';
import {
  AddDomainDocs,
  ListDomainsDocs,
  RemoveDomainDocs,
  VerifyDomainDocs,
} from './domains.openapi.js';
import { WithDeadline } from '../common/http/deadline.interceptor.js';
import { Requires } from '../auth/route-access.decorator.js';

@ApiTags('domains')
@ApiKeyAuth()
@WithDeadline()
@Controller('api/v1/forms/:id/domains')
export class DomainsController {
  constructor(private readonly domains: DomainsService) {}

  @Get()
  @Requires('forms.read')
  @ListDomainsDocs()
  list(@AccessibleForm() form: Form): Promise<DomainListResponseDto> {
    return this.domains.list(form);
  }

  @Post()
  @Requires('domains.manage')
  @HttpCode(HttpStatus.CREATED)
  @AddDomainDocs()
  add(
    @Principal() principal: ApiPrincipal,
    @AccessibleForm() form: Form,
    @Body() body: AddDomainDto,
  ): Promise<DomainResponseDto> {
    return this.domains.add(form, body, principal);
  }

  @Post(':domain/verify')
  @Requires('domains.manage')
  @HttpCode(HttpStatus.OK)
  @VerifyDomainDocs()
  verify(
    @Principal() principal: ApiPrincipal,
    @AccessibleForm() form: Form,
    @Param('domain') domain: string,
  ): Promise<DomainResponseDto> {
    return this.domains.verify(form, domain, principal);
  }

  @Delete(':domain')
  @Requires('domains.manage')
  @HttpCode(HttpStatus.NO_CONTENT)
  @RemoveDomainDocs()
  remove(
    @Principal() principal: ApiPrincipal,
    @AccessibleForm() form: Form,
    @Param('domain') domain: string,
  ): Promise<void> {
    return this.domains.remove(form, domain, principal);
  }
}
