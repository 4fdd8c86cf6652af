// Every statement on webhook: the webhooks API's reads and changes (each change in the
// transaction of its audit event), and what the delivery channel reads — the enabled
// targets, the signing secrets — and writes of a webhook's health.
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository, type EntityManager } from 'typeorm';
import { Webhook } from './webhook.entity.js';

/** What the API may change of a webhook. */
export type WebhookChanges = Partial<
  Pick<
    Webhook,
    | 'url'
    | 'description'
    | 'enabled'
    | 'disabledReason'
    | 'failingSince'
    | 'secretEncrypted'
    | 'previousSecretEncrypted'
    | 'previousSecretExpiresAt'
    | 'updatedAt'
  >
>;

@Injectable()
export class WebhookRepository {
  constructor(
    @InjectRepository(Webhook) private readonly webhooks: Repository<Webhook>,
  ) {}

  /** This repository working in `manager`'s transaction (a change and its audit event). */
  in(manager: EntityManager): WebhookRepository {
    return new WebhookRepository(manager.getRepository(Webhook));
  }

  create(values: Partial<Webhook>): Webhook {
    return this.webhooks.create(values);
  }

  async insert(row: Webhook): Promise<void> {
    await this.webhooks.insert(row);
  }

  /** The form's webhooks, oldest first. */
  listOf(formId: string): Promise<Webhook[]> {
    return this.webhooks.find({
      where: { formId },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
  }

  find(formId: string, id: string): Promise<Webhook | null> {
    return this.webhooks.findOneBy({ id, formId });
  }

  /** The form's webhook with its current secret. */
  withSecret(formId: string, id: string): Promise<Webhook | null> {
    return this.webhooks
      .createQueryBuilder('webhook')
      .addSelect('webhook.secretEncrypted')
      .where('webhook.id = :id AND webhook.formId = :formId', { id, formId })
      .getOne();
  }

  countOf(formId: string): Promise<number> {
    return this.webhooks.countBy({ formId });
  }

  async update(id: string, changes: WebhookChanges): Promise<void> {
    await this.webhooks.update({ id }, changes);
  }

  async delete(id: string): Promise<void> {
    await this.webhooks.delete({ id });
  }

  // ---- what the delivery channel reads and writes ------------------------------------

  /** The ids of the form's enabled webhooks, oldest first. */
  async enabledOf(formId: string): Promise<string[]> {
    const rows = await this.webhooks.find({
      select: { id: true },
      where: { formId, enabled: true },
      order: { createdAt: 'ASC' },
    });
    return rows.map((row) => row.id);
  }

  /** The webhooks with both their secrets (a batch of deliveries is signed with them). */
  withSecrets(ids: readonly string[]): Promise<Webhook[]> {
    return this.webhooks
      .createQueryBuilder('webhook')
      .addSelect(['webhook.secretEncrypted', 'webhook.previousSecretEncrypted'])
      .where('webhook.id IN (:...ids)', { ids })
      .getMany();
  }

  /** The webhook answered: it is no longer failing. */
  async clearFailing(id: string): Promise<void> {
    await this.webhooks.update({ id }, { failingSince: null });
  }

  /** The webhook's first failure of a run, unless another attempt noted one already. */
  async markFailing(id: string, since: Date): Promise<void> {
    await this.webhooks.update(
      { id, failingSince: IsNull() },
      { failingSince: since },
    );
  }

  /** Turns the webhook off for `reason`; false when it already was. */
  async disable(id: string, reason: string, at: Date): Promise<boolean> {
    const result = await this.webhooks.update(
      { id, enabled: true },
      { enabled: false, disabledReason: reason, updatedAt: at },
    );
    return Boolean(result.affected);
  }
}
