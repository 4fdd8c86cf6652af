import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditChain } from './audit-chain.entity.js';
import { AuditChainRepository } from './audit-chain.repository.js';
import { AuditEventRepository } from './audit-event.repository.js';
import { AuditEvent } from './audit-event.entity.js';
import { AuditLogService } from './audit-log.service.js';
import { AuditOpenEvent } from './audit-open-event.entity.js';
import { AuditOpenEventRepository } from './audit-open-event.repository.js';
import { AuditChainChecker } from './audit-chain-checker.js';

/**
 * The audit log's writer and reader (global: every feature that changes something records
 * it through AuditLogService, in the same transaction), for the app and the CLI alike.
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([AuditEvent, AuditChain, AuditOpenEvent])],
  providers: [
    AuditLogService,
    AuditEventRepository,
    AuditChainRepository,
    AuditOpenEventRepository,
    AuditChainChecker,
  ],
  exports: [
    AuditLogService,
    AuditEventRepository,
    AuditChainRepository,
    AuditOpenEventRepository,
    AuditChainChecker,
  ],
})
export class AuditLogModule {}
