import {
  Controller,
  HttpCode,
  HttpStatus,
  Post,
  Req,
  UnsupportedMediaTypeException,
  UseGuards,
} from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ApiSubmitRoute } from './dto/submit-openapi.js';
import { SubmitResponseDto } from './dto/submit-response.dto.js';
import { SubmitThrottlerGuard } from './rate-limit/submit-throttler.guard.js';
import { SubmitService } from './submit.service.js';

const ACCEPTED_TYPES = new Set([
  'application/json',
  'application/x-www-form-urlencoded',
]);

/**
 * Fastify only parses JSON and form bodies for this app; this keeps the route to those
 * two even if another parser is ever registered globally.
 */
function assertAcceptedContentType(request: FastifyRequest): void {
  const header = request.headers['content-type'];
  if (header === undefined) return; // no body at all
  const type = header.split(';', 1)[0].trim().toLowerCase();
  if (!ACCEPTED_TYPES.has(type)) {
    throw new UnsupportedMediaTypeException(
      'Unsupported content type: send application/json or application/x-www-form-urlencoded',
    );
  }
}

/**
 * The public submit route: POST /api/submit/:formId. CORS: see submit-cors.ts. Unlike the
 * other controllers it has no request-deadline interceptor: the form cache and the commit
 * queue bound their own database work, and the hot path skips the interceptor machinery.
 */
@ApiTags('Submit')
@Controller('api/submit')
@UseGuards(SubmitThrottlerGuard)
export class SubmitController {
  constructor(private readonly submitService: SubmitService) {}

  @Post(':formId')
  @HttpCode(HttpStatus.OK)
  @ApiSubmitRoute()
  submit(
    @Req() request: FastifyRequest<{ Params: { formId: string } }>,
  ): Promise<SubmitResponseDto> {
    assertAcceptedContentType(request);
    return this.submitService.submit({
      formId: request.params.formId,
      body: request.body,
      ip: request.ip,
      userAgent: request.headers['user-agent'],
      origin: request.headers.origin,
      referer: request.headers.referer,
    });
  }
}
