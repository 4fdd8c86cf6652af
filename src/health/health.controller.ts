import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { TemporarilyUnavailableException } from '../common/errors/errors.js';
import { DatabaseStateService } from '../common/database/database-state.service.js';
import { HealthStatusDto } from './dto/health-status.dto.js';
import { WithDeadline } from '../common/http/deadline.interceptor.js';
import { Public } from '../auth/route-access.decorator.js';
import { LivenessDocs, ReadinessDocs } from './health.openapi.js';

@ApiTags('health')
@WithDeadline()
@Public()
@Controller('health')
export class HealthController {
  constructor(private readonly database: DatabaseStateService) {}

  // The process is up and serving HTTP. Never touches the database.
  @Get('live')
  @LivenessDocs()
  live(): HealthStatusDto {
    return { status: 'ok' };
  }

  // The database answers: the instance can take traffic.
  @Get('ready')
  @ReadinessDocs()
  async ready(): Promise<HealthStatusDto> {
    if (!(await this.database.ping())) {
      throw new TemporarilyUnavailableException('Database unavailable');
    }
    return { status: 'ok' };
  }
}
