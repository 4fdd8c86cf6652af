import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DomainVerificationModule } from '../domain-verification/domain-verification.module.js';
import { FormsModule } from '../forms/forms.module.js';
import { Submission } from '../submissions/submission.entity.js';
import { SubmitThrottlerModule } from './rate-limit/rate-limit.module.js';
import { SubmitController } from './submit.controller.js';
import { SubmitService } from './submit.service.js';

/** The public hot path: `POST /api/submit/:formId`, its rate limit, CORS and writer. */
@Module({
  imports: [
    TypeOrmModule.forFeature([Submission]),
    FormsModule,
    DomainVerificationModule,
    SubmitThrottlerModule,
  ],
  controllers: [SubmitController],
  providers: [SubmitService],
})
export class SubmitModule {}
