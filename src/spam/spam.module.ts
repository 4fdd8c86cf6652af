import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Form } from '../forms/form.entity.js';
import { SubmissionsModule } from '../submissions/submissions.module.js';
import { DuplicateCheck } from './duplicate-check.js';
import { SpamRetention } from './spam-retention.js';

/**
 * Telling people from bots: the content rules' duplicate check and the retention of the
 * spam folder. The rules themselves are compiled with each cached form (content-rules.ts).
 */
@Module({
  imports: [TypeOrmModule.forFeature([Form]), SubmissionsModule],
  providers: [DuplicateCheck, SpamRetention],
  exports: [DuplicateCheck, SpamRetention],
})
export class SpamModule {}
