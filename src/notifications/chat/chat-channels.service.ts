// The management side of a form's chat channels: create, list, change, delete, send a
// test message. Each change is one method taking an EntityManager, so what records it
// (the audit log) can share its transaction; ChatChannelRepository runs the statements. Every change of the set of enabled channels
// is announced as a change of the form, so the submit path's cached targets follow.
import {
  ConflictException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { SYSTEM_ACTOR } from '../../audit/audit-actor.js';
import type { AuditDetails } from '../../audit/audit-hash.js';
import { AuditLogService } from '../../audit/audit-log.service.js';
import { SecretBoxService } from '../../auth/secret-box.service.js';
import { ValidationFailedException } from '../../common/errors/errors.js';
import { AppConfig } from '../../config/app-config.js';
import type { ChatKind } from '../../config/reach-config.js';
import { FormChangesService } from '../../forms/changes/form-changes.service.js';
import { FormRepository } from '../../forms/form.repository.js';
import { DeliveriesService } from '../deliveries/deliveries.service.js';
import { DeliveryCleanupSweep } from '../deliveries/delivery-cleanup-sweep.js';
import { DeliveryRepository } from '../deliveries/delivery.repository.js';
import { testDelivery } from '../deliveries/test-delivery.js';
import { CommitNotifier } from '../deliveries/commit-notifier.js';
import type { DeliveryResponseDto } from '../deliveries/dto/delivery-response.dto.js';
import { NotificationLimiter } from '../notification-limiter.js';
import {
  BlockedAddressError,
  hostOf,
  resolvePublic,
} from '../webhooks/address-guard.js';
import { ChatChannel } from './chat-channel.entity.js';
import { ChatChannelRepository } from './chat-channel.repository.js';
import {
  updatedDetails,
  type ChatAction,
  type ChatChannelActor,
} from './chat-channel-audit.js';
import { CHAT_TEST, type ChatSecret } from './chat-delivery-channel.js';
import {
  checkChatUrl,
  overridden,
  targetHint,
  telegramReachable,
} from './chat-hosts.js';
import type {
  ChatChannelResponseDto,
  CreateChatChannelDto,
  PatchChatChannelDto,
} from './dto/chat-channel.dto.js';

export const CHAT_CHANNEL_NOT_FOUND = 'Chat channel not found';
export const MAX_CHAT_CHANNELS_PER_FORM = 10;

function invalid(field: string, detail: string): ValidationFailedException {
  return new ValidationFailedException(
    [`${field} ${detail}`],
    [{ field, code: 'url', detail }],
  );
}

@Injectable()
export class ChatChannelsService {
  constructor(
    private readonly channels: ChatChannelRepository,
    private readonly forms: FormRepository,
    private readonly secrets: SecretBoxService,
    private readonly config: AppConfig,
    private readonly changes: FormChangesService,
    private readonly log: DeliveriesService,
    private readonly signal: CommitNotifier,
    private readonly cleanup: DeliveryCleanupSweep,
    private readonly limits: NotificationLimiter,
    private readonly auditLog: AuditLogService,
    private readonly deliveries: DeliveryRepository,
  ) {}

  /** The one place a row becomes what the API shows (never its secret). */
  toResponse(row: ChatChannel): ChatChannelResponseDto {
    return {
      id: row.id,
      kind: row.kind,
      name: row.name,
      target: row.target,
      enabled: Boolean(row.enabled),
      disabledReason: row.disabledReason ?? null,
      createdAt: row.createdAt.toISOString(),
      lastDeliveryAt: row.lastDeliveryAt?.toISOString() ?? null,
    };
  }

  /** The repository, in `manager`'s transaction when there is one. */
  private rows(manager?: EntityManager): ChatChannelRepository {
    return manager ? this.channels.in(manager) : this.channels;
  }

  async list(formId: string): Promise<ChatChannelResponseDto[]> {
    const rows = await this.channels.listOf(formId);
    return rows.map((row) => this.toResponse(row));
  }

  async find(
    formId: string,
    channelId: string,
    manager?: EntityManager,
  ): Promise<ChatChannel> {
    const row =
      typeof channelId === 'string' && channelId.length <= 32
        ? await this.rows(manager).find(formId, channelId)
        : null;
    if (row === null) throw new NotFoundException(CHAT_CHANNEL_NOT_FOUND);
    return row;
  }

  async create(
    formId: string,
    input: CreateChatChannelDto,
    by?: ChatChannelActor,
    manager?: EntityManager,
  ): Promise<ChatChannelResponseDto> {
    const secret = await this.checkedSecret(input.kind, input);
    return this.audited(formId, by, manager, async (m) => {
      const row = await this.insert(formId, input, secret, m);
      const response = this.toResponse(row);
      const { kind, name, enabled } = response;
      return [
        response,
        row.id,
        'chat_channel.created',
        { kind, name, enabled },
      ];
    });
  }

  private async insert(
    formId: string,
    input: CreateChatChannelDto,
    secret: ChatSecret,
    manager: EntityManager,
  ): Promise<ChatChannel> {
    const count = await this.channels.in(manager).countOf(formId);
    if (count >= MAX_CHAT_CHANNELS_PER_FORM) {
      throw new ConflictException(
        `This form already has ${MAX_CHAT_CHANNELS_PER_FORM} chat channels, the most it can have: delete one before adding another`,
      );
    }
    const row = Object.assign(new ChatChannel(), {
      id: randomBytes(16).toString('base64url'),
      formId,
      kind: input.kind,
      name: input.name?.trim() || input.kind,
      target: targetHint(input.kind, secret, this.config.reach),
      secretEncrypted: this.secrets.encrypt(JSON.stringify(secret)),
      enabled: true,
      disabledReason: null,
      createdAt: new Date(),
      lastDeliveryAt: null,
    } satisfies ChatChannel);
    await this.channels.in(manager).insert(row);
    return row;
  }

  async patch(
    formId: string,
    channelId: string,
    input: PatchChatChannelDto,
    by?: ChatChannelActor,
    manager?: EntityManager,
  ): Promise<ChatChannelResponseDto> {
    const row = await this.find(formId, channelId, manager);
    const changes: Partial<ChatChannel> = {};
    if (input.name !== undefined) changes.name = input.name.trim() || row.kind;
    const newSecret =
      row.kind === 'telegram'
        ? input.botToken !== undefined || input.chatId !== undefined
        : input.url !== undefined;
    if (newSecret) {
      const stored = await this.rows(manager).secretOf(row.id);
      const old = JSON.parse(this.secrets.decrypt(stored)) as ChatSecret;
      const secret = await this.checkedSecret(row.kind, {
        url: input.url ?? old.url,
        botToken: input.botToken ?? old.botToken,
        chatId: input.chatId ?? old.chatId,
      });
      changes.secretEncrypted = this.secrets.encrypt(JSON.stringify(secret));
      changes.target = targetHint(row.kind, secret, this.config.reach);
    }
    if (input.enabled !== undefined) {
      changes.enabled = input.enabled;
      if (input.enabled) changes.disabledReason = null;
    }
    const details = updatedDetails(row, changes, input);
    return this.audited(formId, by, manager, async (m) => {
      if (Object.keys(changes).length > 0) {
        await this.channels.in(m).update(row.id, changes);
      }
      delete changes.secretEncrypted;
      const response = this.toResponse(Object.assign(row, changes));
      return [
        response,
        row.id,
        details && 'chat_channel.updated',
        details ?? {},
      ];
    });
  }

  /** Deletes the channel and its deliveries (with their attempts). */
  async remove(
    formId: string,
    channelId: string,
    by?: ChatChannelActor,
    manager?: EntityManager,
  ): Promise<void> {
    await this.audited(formId, by, manager, async (m) => {
      const row = await this.find(formId, channelId, m);
      await this.channels.in(m).delete(row.id);
      const { kind, name } = row;
      const details = { kind, name, enabled: Boolean(row.enabled) };
      return [undefined, row.id, 'chat_channel.deleted', details];
    });
    await this.cleanup.deleteOfWebhook(channelId, 'chat');
  }

  /**
   * Runs `change` (in `manager`'s transaction, or a new one) with its audit event: the
   * change answers what to return, the channel's id, the action (null: nothing changed,
   * no event) and the details. The form's change is announced once it is done.
   */
  private async audited<T>(
    formId: string,
    by: ChatChannelActor | undefined,
    manager: EntityManager | undefined,
    change: (
      manager: EntityManager,
    ) => Promise<[T, string, ChatAction | null, AuditDetails]>,
  ): Promise<T> {
    const accountId =
      by?.accountId ??
      (await this.forms.summaries([formId])).get(formId)?.accountId;
    if (accountId === undefined) {
      throw new NotFoundException(CHAT_CHANNEL_NOT_FOUND);
    }
    const run = async (m: EntityManager): Promise<T> => {
      const [result, id, action, details] = await change(m);
      if (action !== null) {
        await this.auditLog.record(m, {
          accountId,
          actor: by?.actor ?? SYSTEM_ACTOR,
          action,
          target: { type: 'chat_channel', id },
          details: { formId, ...details },
        });
      }
      return result;
    };
    const result = await (manager
      ? run(manager)
      : this.auditLog.transaction(run));
    this.changes.changed(formId);
    return result;
  }

  /** Queues a test message, due now (refused while off, and past 10 a minute). */
  async test(formId: string, channelId: string): Promise<DeliveryResponseDto> {
    const row = await this.find(formId, channelId);
    if (!row.enabled) {
      throw new ConflictException(
        'This chat channel is turned off: turn it on before sending a test message',
      );
    }
    await this.limits.spendTest(row.id);
    const form = (await this.forms.summaries([formId])).get(formId);
    if (form === undefined) throw new NotFoundException(CHAT_CHANNEL_NOT_FOUND);
    const delivery = testDelivery({
      formId,
      accountId: form.accountId,
      channel: 'chat',
      target: row.id,
      event: CHAT_TEST,
    });
    await this.deliveries.insert([delivery]);
    this.signal.committed();
    return this.log.toResponse(delivery);
  }

  /** The secret to keep for a channel, or 400 with why it is refused. */
  private async checkedSecret(
    kind: ChatKind,
    input: { url?: string; botToken?: string; chatId?: string },
  ): Promise<ChatSecret> {
    const reach = this.config.reach;
    if (kind === 'telegram') {
      if (!telegramReachable(reach)) {
        throw invalid(
          'botToken',
          'cannot be used: TELEGRAM_API_URL is not on a host CHAT_ALLOWED_HOSTS allows',
        );
      }
      if (!input.botToken) {
        throw invalid('botToken', 'is required for telegram');
      }
      if (!input.chatId) throw invalid('chatId', 'is required for telegram');
      await this.reachable('botToken', new URL(reach.telegramApiUrl), kind);
      return { botToken: input.botToken, chatId: input.chatId };
    }
    if (typeof input.url !== 'string') {
      throw invalid('url', 'is required for this kind');
    }
    const verdict = checkChatUrl(kind, input.url, reach);
    if (!verdict.ok) throw invalid('url', verdict.problem);
    await this.reachable('url', verdict.url, kind);
    return { url: verdict.url.toString() };
  }

  /** Outside CHAT_ALLOWED_HOSTS, every address of the host must be public. */
  private async reachable(
    field: string,
    url: URL,
    kind: ChatKind,
  ): Promise<void> {
    if (overridden(kind, this.config.reach)) return;
    const host = hostOf(url);
    try {
      await resolvePublic(host, this.config.dnsServers);
    } catch (error) {
      throw invalid(
        field,
        error instanceof BlockedAddressError
          ? `leads to ${host}, which is not public: ${error.message}`
          : `leads to ${host}, which could not be resolved`,
      );
    }
  }
}
