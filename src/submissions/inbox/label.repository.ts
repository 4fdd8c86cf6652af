// Every statement on label, an account's labels (which submissions carry them is
// submission_label's, written with the inbox's changes: inbox-sql.ts).
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository, type EntityManager } from 'typeorm';
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

  create(
    values: Pick<Label, 'id' | 'accountId' | 'name' | 'color'> &
      Partial<Pick<Label, 'createdAt'>>,
  ): Label {
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

  /** In the caller's transaction (a change with its audit event). */
  async insertIn(manager: EntityManager, label: Label): Promise<void> {
    await manager.insert(Label, label);
  }

  /** false when the account has no such label. */
  async updateIn(
    manager: EntityManager,
    accountId: string,
    id: string,
    values: Pick<Label, 'name' | 'color'>,
  ): Promise<boolean> {
    return Boolean(
      (await manager.update(Label, { id, accountId }, values)).affected,
    );
  }

  /** false when the account has no such label. */
  async deleteIn(
    manager: EntityManager,
    accountId: string,
    id: string,
  ): Promise<boolean> {
    return Boolean((await manager.delete(Label, { id, accountId })).affected);
  }

  /** false when the account has no such label. */
  async delete(accountId: string, id: string): Promise<boolean> {
    return Boolean((await this.labels.delete({ id, accountId })).affected);
  }
}
