import { Controller, Get } from '@nestjs/common';
import {
  ApiOkResponse,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import { ServiceUnavailableError } from '../common/errors.js';
import { DatabaseStateService } from '../common/database/database-state.service.js';
import { HealthStatusDto } from './dto/health-status.dto.js';
import { WithDeadline } from '../common/deadline.interceptor.js';

@ApiTags('health')
@WithDeadline()
@Controller('health')
export class HealthController {
  constructor(private readonly database: DatabaseStateService) {}

  /** The process is up and serving HTTP. Never touches the database. */
  @Get('live')
  @ApiOkResponse({ type: HealthStatusDto })
  live(): HealthStatusDto {
    return { status: 'ok' };
  }

  /** The database answers: the instance can take traffic. */
  @Get('ready')
  @ApiOkResponse({ type: HealthStatusDto })
  @ApiServiceUnavailableResponse({
    description: 'The database is not reachable.',
  })
  async ready(): Promise<HealthStatusDto> {
    if (!(await this.database.ping())) {
      throw new ServiceUnavailableError('Database unavailable');
    }
    return { status: 'ok' };
  }
}
