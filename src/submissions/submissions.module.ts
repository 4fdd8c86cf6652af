import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DomainVerificationModule } from '../domain-verification/domain-verification.module.js';
import { FormsModule } from '../forms/forms.module.js';
import { SubmitThrottlerModule } from './rate-limit/rate-limit.module.js';
import { SubmissionsController } from './submissions.controller.js';
import { SubmissionsService } from './submissions.service.js';
import { Submission } from './submission.entity.js';
import { SubmitController } from './submit.controller.js';
import { SubmitService } from './submit.service.js';

@Module({
  imports: [
    TypeOrmModule.forFeature([Submission]),
    FormsModule,
    DomainVerificationModule,
    SubmitThrottlerModule,
  ],
  controllers: [SubmitController, SubmissionsController],
  providers: [SubmitService, SubmissionsService],
  exports: [SubmissionsService],
})
export class SubmissionsModule {}
