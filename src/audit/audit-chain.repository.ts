// Every statement on audit_chain, each account's chain head and anchor (its dialect SQL in
// audit-chain-sql.ts): recording an event locks the head and moves it on, the retention
// sweep moves the anchor, verification reads where each chain starts and ends. Each runs
// in the caller's transaction, the one of the change being recorded.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { SqlStatement } from '../common/database/sql-statement.js';
import { AuditChain } from './audit-chain.entity.js';
import { AuditChainSql } from './audit-chain-sql.js';

export interface ChainHead {
  headSeq: number | string;
  headHash: string;
}

@Injectable()
export class AuditChainRepository {
  private readonly sql: AuditChainSql;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.sql = new AuditChainSql(
      dataSource.options.type === 'better-sqlite3' ? 'sqlite' : 'mysql',
    );
  }

  /** Creates the account's chain (empty) unless it exists. */
  async ensure(manager: EntityManager, accountId: string): Promise<void> {
    await this.run(manager, this.sql.ensureChain(accountId));
  }

  /** The head of the account's chain, locked until the transaction ends; none without a chain. */
  async lockHead(
    manager: EntityManager,
    accountId: string,
  ): Promise<ChainHead | undefined> {
    const rows = (await this.run(
      manager,
      this.sql.lockHead(accountId),
    )) as ChainHead[];
    return rows[0];
  }

  /** Moves the head to the event just written. */
  async advanceHead(
    manager: EntityManager,
    accountId: string,
    seq: number,
    hash: string,
  ): Promise<void> {
    await this.run(manager, this.sql.advanceHead(accountId, seq, hash));
  }

  /** Verification starts after `seq` once the events through it are deleted. */
  async moveAnchor(
    manager: EntityManager,
    accountId: string,
    seq: number,
    hash: string,
  ): Promise<void> {
    await this.run(manager, this.sql.moveAnchor(accountId, seq, hash));
  }

  /** Every account that has a chain (or just `accountId`), with where verification starts and ends. */
  chains(accountId?: string): Promise<AuditChain[]> {
    return this.dataSource.getRepository(AuditChain).find({
      where: accountId === undefined ? {} : { accountId },
      order: { accountId: 'ASC' },
    });
  }

  private run(
    manager: EntityManager,
    { sql, params }: SqlStatement,
  ): Promise<unknown[]> {
    return manager.query(sql, params);
  }
}
