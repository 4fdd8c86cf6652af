// Every statement on label, an account's labels (which submissions carry them is
// submission_label's, written with the inbox's changes: inbox-sql.ts).
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { Label } from './label.entity.js';

@Injectable()
export class LabelRepository {
  constructor(
    @InjectRepository(Label) private readonly labels: Repository<Label>,
  ) {}

  /** The account's labels by name. */
  listOf(accountId: string): Promise<Label[]> {
    return this.labels.find({ where: { accountId }, order: { name: 'ASC' } });
  }

  create(values: Pick<Label, 'id' | 'accountId' | 'name' | 'color'>): Label {
    return this.labels.create(values);
  }

  /** Writes a new or changed label (a name taken in the account: a unique violation). */
  async save(label: Label): Promise<void> {
    await this.labels.save(label);
  }

  find(accountId: string, id: string): Promise<Label | null> {
    return this.labels.findOneBy({ id, accountId });
  }

  /** The account's labels of these names. */
  withNames(accountId: string, names: readonly string[]): Promise<Label[]> {
    return this.labels.find({ where: { accountId, name: In([...names]) } });
  }

  findByName(accountId: string, name: string): Promise<Label | null> {
    return this.labels.findOneBy({ accountId, name });
  }

  /** false when the account has no such label. */
  async delete(accountId: string, id: string): Promise<boolean> {
    return Boolean((await this.labels.delete({ id, accountId })).affected);
  }
}
