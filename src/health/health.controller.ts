import { Controller, Get } from '@nestjs/common';
import {
  ApiOkResponse,
  ApiOperation,
  ApiRequestTimeoutResponse,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import { ErrorDto } from '../common/dto/error.dto.js';
import { ServiceUnavailableError } from '../common/errors.js';
import { DatabaseStateService } from '../common/database/database-state.service.js';
import { HealthStatusDto } from './dto/health-status.dto.js';
import { WithDeadline } from '../common/deadline.interceptor.js';
import { Public } from '../auth/route-access.decorator.js';

// Every route answers 408 to a client that takes too long to send its request; a health
// check has no other client error to declare.
const TOO_SLOW = ApiRequestTimeoutResponse({
  type: ErrorDto,
  description:
    'The request (headers and body) did not arrive within 15 seconds; the connection is closed.',
  example: { error: 'The request took too long to arrive' },
});

@ApiTags('health')
@WithDeadline()
@Public()
@Controller('health')
export class HealthController {
  constructor(private readonly database: DatabaseStateService) {}

  /** The process is up and serving HTTP. Never touches the database. */
  @Get('live')
  @ApiOperation({
    summary: 'Liveness: the process is up (never touches the database)',
  })
  @ApiOkResponse({ type: HealthStatusDto })
  @TOO_SLOW
  live(): HealthStatusDto {
    return { status: 'ok' };
  }

  /** The database answers: the instance can take traffic. */
  @Get('ready')
  @ApiOperation({
    summary: 'Readiness: the database answers, the instance can take traffic',
  })
  @ApiOkResponse({ type: HealthStatusDto })
  @ApiServiceUnavailableResponse({
    type: ErrorDto,
    description: 'The database is not reachable.',
    example: { error: 'Database unavailable' },
  })
  @TOO_SLOW
  async ready(): Promise<HealthStatusDto> {
    if (!(await this.database.ping())) {
      throw new ServiceUnavailableError('Database unavailable');
    }
    return { status: 'ok' };
  }
}
