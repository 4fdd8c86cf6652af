import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditChain } from './audit-chain.entity.js';
import { AuditChainRepository } from './audit-chain.repository.js';
import { AuditEventRepository } from './audit-event.repository.js';
import { AuditEvent } from './audit-event.entity.js';
import { AuditLog } from './audit-log.service.js';
import { AuditOpenEvent } from './audit-open-event.entity.js';
import { AuditOpenEventRepository } from './audit-open-event.repository.js';
import { AuditVerification } from './audit-verification.js';

/**
 * The audit log's writer and reader (global: every feature that changes something records
 * it through AuditLog, in the same transaction), for the app and the CLI alike.
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([AuditEvent, AuditChain, AuditOpenEvent])],
  providers: [
    AuditLog,
    AuditEventRepository,
    AuditChainRepository,
    AuditOpenEventRepository,
    AuditVerification,
  ],
  exports: [
    AuditLog,
    AuditEventRepository,
    AuditChainRepository,
    AuditOpenEventRepository,
    AuditVerification,
  ],
})
export class AuditLogModule {}
