// Tells every cache of form configuration that a form changed. Listeners in this process
// hear of it at once; with REDIS_URL set, the change is also published on a Redis channel,
// so the other instances drop their copy too. Without Redis (or while it is unreachable),
// other instances rely on their caches' short lifetime instead. Changes of memberships
// (accounts/membership-changes.ts) ride the same channel to their own listeners.
import {
  Injectable,
  Logger,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import type { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import type {
  MembershipChange,
  MembershipChangeListener,
  MembershipChanges,
} from '../../accounts/membership-changes.js';
import { AppConfig } from '../../config/app-config.js';

/**
 * `changed`: a form was updated or deleted (or its domains changed); `created`: a new id
 * exists (negative cache entries for it must go); `reset`: changes may have been missed
 * (the channel was down), so every cached form is suspect.
 */
export type FormChange =
  { kind: 'changed' | 'created'; formId: string } | { kind: 'reset' };

export type FormChangeListener = (change: FormChange) => void;

const CHANNEL = 'formgate:form-changes';
const REDIS_TIMEOUT_MS = 500;

/** What travels on the channel: a form change, or a membership change. */
type Notice = FormChange | MembershipChange;

@Injectable()
export class FormChangesService
  implements OnModuleInit, OnApplicationShutdown, MembershipChanges
{
  private readonly logger = new Logger('FormChanges');
  private readonly listeners = new Set<FormChangeListener>();
  private readonly membershipListeners = new Set<MembershipChangeListener>();
  private readonly instance = randomUUID();
  private readonly channel: string;
  private publisher: Redis | undefined;
  private subscriber: Redis | undefined;
  private subscribed = false;

  constructor(private readonly config: AppConfig) {
    // A shared Redis may carry several installations apart by key prefix (?keyPrefix=…).
    const prefix = config.redisUrl
      ? (new URL(config.redisUrl).searchParams.get('keyPrefix') ?? '')
      : '';
    this.channel = `${prefix}${CHANNEL}`;
  }

  /** true while changes made on other instances reach this one at once. */
  get sharedAcrossInstances(): boolean {
    return this.subscribed;
  }

  async onModuleInit(): Promise<void> {
    const url = this.config.redisUrl;
    if (!url) return;
    // Loaded only when used: a start without Redis stays lighter.
    const { Redis } = await import('ioredis');
    const options = {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: REDIS_TIMEOUT_MS,
      retryStrategy: (attempt: number) => Math.min(100 * 2 ** attempt, 2000),
    };
    this.publisher = new Redis(url, options);
    this.publisher.on('error', () => undefined);
    // A subscriber needs its own connection, and its (re)subscription queued until ready.
    this.subscriber = new Redis(url, { ...options, enableOfflineQueue: true });
    this.subscriber.on('error', () => undefined);
    this.subscriber.on('ready', () => {
      this.subscriber!.subscribe(this.channel).then(
        () => {
          const missed = !this.subscribed;
          this.subscribed = true;
          // Whatever changed while nothing was listening is unknown: start afresh.
          if (missed) this.notify({ kind: 'reset' });
        },
        (error: Error) =>
          this.logger.warn(
            `Cannot subscribe to form changes: ${error.message}`,
          ),
      );
    });
    this.subscriber.on('close', () => {
      this.subscribed = false;
    });
    this.subscriber.on('message', (_channel: string, message: string) => {
      const parsed = parseMessage(message);
      if (parsed && parsed.from !== this.instance) this.notify(parsed.change);
    });
  }

  onApplicationShutdown(): void {
    this.subscribed = false;
    for (const client of [this.subscriber, this.publisher]) {
      client?.disconnect();
    }
  }

  /** Registers a listener; returns the function that removes it. */
  subscribe(listener: FormChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  subscribeMemberships(listener: MembershipChangeListener): () => void {
    this.membershipListeners.add(listener);
    return () => this.membershipListeners.delete(listener);
  }

  changed(formId: string): void {
    this.publish({ kind: 'changed', formId });
  }

  membershipChanged(accountId: string, userId?: string): void {
    this.publish({ kind: 'membership', accountId, userId });
  }

  created(formId: string): void {
    this.publish({ kind: 'created', formId });
  }

  private publish(change: Notice): void {
    this.notify(change);
    if (this.publisher?.status === 'ready') {
      const message = JSON.stringify({ from: this.instance, change });
      this.publisher.publish(this.channel, message).catch(() => undefined);
    }
  }

  private notify(change: Notice): void {
    if (change.kind !== 'membership') {
      for (const listener of this.listeners) listener(change);
    }
    if (change.kind === 'membership' || change.kind === 'reset') {
      for (const listener of this.membershipListeners) listener(change);
    }
  }
}

function parseMessage(
  message: string,
): { from: string; change: Notice } | null {
  try {
    const parsed = JSON.parse(message) as {
      from?: unknown;
      change?: {
        kind?: unknown;
        formId?: unknown;
        accountId?: unknown;
        userId?: unknown;
      };
    };
    const kind = parsed.change?.kind;
    const formId = parsed.change?.formId;
    if (typeof parsed.from !== 'string') return null;
    if (kind === 'reset') return { from: parsed.from, change: { kind } };
    if (kind === 'membership') {
      const { accountId, userId } = parsed.change!;
      if (typeof accountId !== 'string') return null;
      if (userId !== undefined && typeof userId !== 'string') return null;
      return {
        from: parsed.from,
        change: { kind, accountId, userId: userId as string | undefined },
      };
    }
    if (
      (kind === 'changed' || kind === 'created') &&
      typeof formId === 'string'
    ) {
      return { from: parsed.from, change: { kind, formId } };
    }
    return null;
  } catch {
    return null;
  }
}
