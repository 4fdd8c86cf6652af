// Every statement on autoresponse_unsubscribe: whether an account's autoresponses to an
// address were stopped, and stopping them (once; repeating changes nothing).
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AutoresponseUnsubscribe } from './autoresponse-unsubscribe.entity.js';

/** An account and the hash of an address. */
export interface UnsubscribeSubject {
  accountId: string;
  addressHash: string;
}

@Injectable()
export class AutoresponseUnsubscribeRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async isStopped(subject: UnsubscribeSubject): Promise<boolean> {
    return (
      (await this.dataSource
        .getRepository(AutoresponseUnsubscribe)
        .countBy(subject)) > 0
    );
  }

  /** Stops the account's autoresponses to the address, unless the account is gone. */
  async stop(subject: UnsubscribeSubject, at: Date): Promise<void> {
    await this.dataSource
      .createQueryBuilder()
      .insert()
      .into(AutoresponseUnsubscribe)
      .values({ ...subject, createdAt: at })
      .orIgnore()
      .execute()
      .catch((error: { code?: string }) => {
        // The account is gone (foreign key): there is nothing left to stop.
        if (!/FOREIGN|ER_NO_REFERENCED_ROW/i.test(String(error.code))) {
          throw error;
        }
      });
  }
}
