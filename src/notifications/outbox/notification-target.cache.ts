// Where a form's submissions are notified — its enabled webhooks and confirmed recipients,
// as its channels report them — and whose account it belongs to, kept in memory per form.
// The submit route asks whether a form notifies at all (its submissions are then listed
// in the batch's outbox event); the worker asks for the targets when it expands an event
// into deliveries. A change of a form, which is how channels report a change of their
// targets, drops its entry at once here and, through Redis, on every instance; without
// Redis an entry lives FORM_TTL_MS, as the submit route's form cache does.
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { FormChangesService } from '../../forms/changes/form-changes.service.js';
import { FormRepository } from '../../forms/form.repository.js';
import {
  NOTIFICATION_CHANNELS,
  type NotificationChannel,
} from '../notification-channel.js';
import type { DeliveryTarget } from './outbox-entry.js';

/** Lifetime of an entry while changes on other instances may go unheard. */
const TTL_MS = 5_000;
/** Lifetime while the Redis channel delivers every change (a safety net only). */
const SHARED_TTL_MS = 60_000;
const MAX_FORMS = 10_000;

export interface FormTargets {
  accountId: string;
  targets: readonly DeliveryTarget[];
}

interface Entry {
  value: FormTargets;
  expiresAt: number;
}

@Injectable()
export class NotificationTargetCache implements OnModuleInit {
  private readonly forms = new Map<string, Entry>();
  /** Bumped on every change: a read that started before one is not kept. */
  private generation = 0;

  constructor(
    private readonly formRows: FormRepository,
    private readonly changes: FormChangesService,
    @Inject(NOTIFICATION_CHANNELS)
    private readonly channels: NotificationChannel[],
  ) {}

  onModuleInit(): void {
    this.changes.subscribe((change) => {
      this.generation += 1;
      if (change.kind === 'reset') this.forms.clear();
      else if (change.kind === 'changed') this.forms.delete(change.formId);
    });
  }

  /** The targets and account of each form that exists (a deleted one is absent). */
  async of(formIds: readonly string[]): Promise<Map<string, FormTargets>> {
    const found = new Map<string, FormTargets>();
    const missing: string[] = [];
    const now = Date.now();
    for (const formId of new Set(formIds)) {
      const entry = this.forms.get(formId);
      if (entry !== undefined && entry.expiresAt > now) {
        found.set(formId, entry.value);
      } else missing.push(formId);
    }
    if (missing.length === 0) return found;
    const generation = this.generation;
    const summaries = await this.formRows.summaries(missing);
    const ttl = this.changes.sharedAcrossInstances ? SHARED_TTL_MS : TTL_MS;
    for (const [formId, form] of summaries) {
      const lists = await Promise.all(
        this.channels.map(async (channel) =>
          (await channel.targetsFor(formId)).map((target) => ({
            channel: channel.name,
            target,
          })),
        ),
      );
      const value = { accountId: form.accountId, targets: lists.flat() };
      found.set(formId, value);
      if (generation !== this.generation) continue;
      this.forms.delete(formId);
      this.forms.set(formId, { value, expiresAt: Date.now() + ttl });
      if (this.forms.size > MAX_FORMS) {
        this.forms.delete(this.forms.keys().next().value!);
      }
    }
    return found;
  }
}
