// Every statement on chat_channel: the chat channels API's reads and changes (each in the
// caller's transaction when it has one, with its audit event), and what the delivery
// channel reads — the enabled targets, the secrets — and writes after a post.
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository, type EntityManager } from 'typeorm';
import { ChatChannel } from './chat-channel.entity.js';

@Injectable()
export class ChatChannelRepository {
  constructor(
    @InjectRepository(ChatChannel)
    private readonly channels: Repository<ChatChannel>,
  ) {}

  /** This repository working in `manager`'s transaction (a change and its audit event). */
  in(manager: EntityManager): ChatChannelRepository {
    return new ChatChannelRepository(manager.getRepository(ChatChannel));
  }

  async insert(row: ChatChannel): Promise<void> {
    await this.channels.insert(row);
  }

  /** The form's channels, oldest first. */
  listOf(formId: string): Promise<ChatChannel[]> {
    return this.channels.find({
      where: { formId },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
  }

  find(formId: string, id: string): Promise<ChatChannel | null> {
    return this.channels.findOneBy({ id, formId });
  }

  countOf(formId: string): Promise<number> {
    return this.channels.countBy({ formId });
  }

  /** The channel's sealed secret. */
  async secretOf(id: string): Promise<string> {
    const stored = await this.channels
      .createQueryBuilder('chat')
      .addSelect('chat.secretEncrypted')
      .where({ id })
      .getOneOrFail();
    return stored.secretEncrypted;
  }

  async update(id: string, changes: Partial<ChatChannel>): Promise<void> {
    await this.channels.update({ id }, changes);
  }

  async delete(id: string): Promise<void> {
    await this.channels.delete({ id });
  }

  // ---- what the delivery channel reads and writes ------------------------------------

  /** The ids of the form's enabled channels, oldest first. */
  async enabledOf(formId: string): Promise<string[]> {
    const rows = await this.channels.find({
      select: { id: true },
      where: { formId, enabled: true },
      order: { createdAt: 'ASC' },
    });
    return rows.map((row) => row.id);
  }

  /** The channels with their sealed secrets. */
  withSecrets(ids: readonly string[]): Promise<ChatChannel[]> {
    return this.channels
      .createQueryBuilder('chat')
      .addSelect('chat.secretEncrypted')
      .where({ id: In([...ids]) })
      .getMany();
  }

  async markDelivered(id: string, at: Date): Promise<void> {
    await this.channels.update({ id }, { lastDeliveryAt: at });
  }

  /** Turns the channel off for `reason`; false when it already was. */
  async disable(id: string, reason: string): Promise<boolean> {
    const result = await this.channels.update(
      { id, enabled: true },
      { enabled: false, disabledReason: reason },
    );
    return Boolean(result.affected);
  }
}
