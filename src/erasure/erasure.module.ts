import { Module } from '@nestjs/common';
import { FormsModule } from '../forms/forms.module.js';
import { SubmissionsModule } from '../submissions/submissions.module.js';
import { ErasureController } from './erasure.controller.js';
import { ErasureService } from './erasure.service.js';

/** Erasure and the data-subject export, by API and (through ErasureService) the dashboard. */
@Module({
  imports: [FormsModule, SubmissionsModule],
  controllers: [ErasureController],
  providers: [ErasureService],
  exports: [ErasureService],
})
export class ErasureModule {}
