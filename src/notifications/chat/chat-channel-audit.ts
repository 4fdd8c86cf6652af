// A chat channel's changes as audit events (docs/audit.md): kind, name and enabled; the
// webhook URL, bot token and chat id only as "changed".
import { CHANGED, changesOf } from '../../audit/audit-details.js';
import type { AuditActor } from '../../audit/audit-actor.js';
import type { AuditDetails } from '../../audit/audit-hash.js';
import type { ApiPrincipal } from '../../auth/principal.js';
import type { ChatChannel } from './chat-channel.entity.js';
import type { PatchChatChannelDto } from './dto/chat-channel.dto.js';

export type ChatAction =
  'chat_channel.created' | 'chat_channel.updated' | 'chat_channel.deleted';

/** Who changes a form's chat channels, and the form's account (the audit log's). */
export interface ChatChannelActor {
  accountId: string;
  actor: ApiPrincipal | AuditActor;
}

/** What a change of `row` by `changes` changed; null when nothing did. */
export function updatedDetails(
  row: ChatChannel,
  changes: Partial<ChatChannel>,
  input: PatchChatChannelDto,
): AuditDetails | null {
  const details = changesOf<ChatChannel>(
    { name: row.name, enabled: Boolean(row.enabled) },
    changes,
    ['name', 'enabled'],
  );
  if (changes.secretEncrypted !== undefined) {
    for (const field of ['url', 'botToken', 'chatId'] as const) {
      if (input[field] !== undefined) details[field] = CHANGED;
    }
  }
  return Object.keys(details).length === 0
    ? null
    : { kind: row.kind, ...details };
}
