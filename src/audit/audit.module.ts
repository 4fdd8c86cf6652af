import { Module } from '@nestjs/common';
import { AuditEventsController } from './audit-events.controller.js';
import { AuditEventsService } from './audit-events.service.js';
import { AuditRetentionSweep } from './audit-retention-sweep.js';

/** The audit log's API, and its retention sweep (docs/audit.md). */
@Module({
  controllers: [AuditEventsController],
  providers: [AuditEventsService, AuditRetentionSweep],
  exports: [AuditEventsService],
})
export class AuditModule {}
