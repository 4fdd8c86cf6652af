// The fixed list of what the audit log records (docs/audit.md describes each: its actor,
// target and details). An action is dotted: `<what it is about>.<what happened>`.
export const AUDIT_ACTIONS = [
  'form.created',
  'form.updated',
  'form.deleted',
  'form_key.regenerated',
  'form_key.rotated',
  'account_key.created',
  'account_key.revoked',
  'domain.added',
  'domain.verified',
  'domain.removed',
  'webhook.updated',
  'recipients.updated',
  'spam.updated',
  'captcha.updated',
  'retention.updated',
  'submissions.exported',
  'submission.deleted',
  'submissions.deleted',
  'submission.released_from_spam',
  'label.created',
  'label.updated',
  'label.deleted',
  'erasure.run',
  'member.invited',
  'member.joined',
  'member.role_changed',
  'member.removed',
  'member.left',
  'invitation.revoked',
  'invitation.resent',
  'account.renamed',
  'sign_in.succeeded',
  'sign_in.failed',
  // Recorded by features wired with the same call (AuditLogService.record) as they arrive.
  'chat_channel.created',
  'chat_channel.updated',
  'chat_channel.deleted',
  'autoresponder.updated',
  'sso.updated',
  'security_policy.updated',
  'member.second_factor_added',
  'member.second_factor_removed',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const ACTOR_TYPES = [
  'member',
  'account-key',
  'form-key',
  'cli',
  'system',
] as const;

export type ActorType = (typeof ACTOR_TYPES)[number];
