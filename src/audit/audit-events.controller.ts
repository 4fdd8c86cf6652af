import { Controller, Get, Header, Query, StreamableFile } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth, Principal } from '../auth/api-key-auth.decorator.js';
import type { ApiPrincipal } from '../auth/principal.js';
import { Requires } from '../auth/route-access.decorator.js';
import {
  NoDeadline,
  WithDeadline,
} from '../common/http/deadline.interceptor.js';
import {
  ExportAuditEventsDocs,
  ListAuditEventsDocs,
} from './audit-events.openapi.js';
import { AuditEventsService } from './audit-events.service.js';
import type { AuditEventPageDto } from './dto/audit-event.dto.js';
import {
  AuditFiltersQueryDto,
  ListAuditEventsQueryDto,
} from './dto/audit-events-query.dto.js';

/** The account's audit log (docs/audit.md), for admin account keys. */
@ApiTags('audit log')
@ApiKeyAuth({ accountKeyOnly: true })
@WithDeadline()
@Controller('api/v1/account/audit-events')
export class AuditEventsController {
  constructor(private readonly events: AuditEventsService) {}

  @Get()
  @Requires('audit.read')
  @ListAuditEventsDocs()
  list(
    @Principal() principal: ApiPrincipal,
    @Query() query: ListAuditEventsQueryDto,
  ): Promise<AuditEventPageDto> {
    return this.events.list(principal.accountId, query);
  }

  @Get('export')
  @Requires('audit.read')
  @NoDeadline()
  @Header('Cache-Control', 'no-store')
  @ExportAuditEventsDocs()
  export(
    @Principal() principal: ApiPrincipal,
    @Query() query: AuditFiltersQueryDto,
  ): StreamableFile {
    return new StreamableFile(
      this.events.exportNdjson(principal.accountId, query),
      {
        type: 'application/x-ndjson',
        disposition: 'attachment; filename="audit-events.ndjson"',
      },
    );
  }
}
