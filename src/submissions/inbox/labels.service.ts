// An account's labels: listed by any role, made and changed with `submissions.work`, from the
// API and the dashboard alike; each change is an audit event in the change's transaction.
import {
  BadRequestException,
  ConflictException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import { SYSTEM_ACTOR, type AuditActor } from '../../audit/audit-actor.js';
import type { AuditDetails } from '../../audit/audit-hash.js';
import {
  AuditLogService,
  type AuditRecord,
} from '../../audit/audit-log.service.js';
import { LabelRepository } from './label.repository.js';
import type { ApiPrincipal } from '../../auth/principal.js';
import { isUniqueViolation } from '../../common/database/driver-errors.js';
import { newUlid } from '../../common/values/ulid.js';
import {
  Label,
  LABEL_COLORS,
  LABEL_NAME_MAX,
  type LabelColor,
} from './label.entity.js';

export interface LabelView {
  id: string;
  name: string;
  color: LabelColor;
  createdAt: string;
}

/** Who changes a label: the request's key or member, else the service itself. */
export type LabelActor = ApiPrincipal | AuditActor;

export const LABEL_NOT_FOUND = 'Label not found';
export const LABEL_TAKEN = 'A label with this name already exists';

/** A label's name as stored: trimmed, 1 to 40 characters (else 400). */
export function labelName(name: unknown): string {
  const text = typeof name === 'string' ? name.trim() : '';
  if (text === '' || Array.from(text).length > LABEL_NAME_MAX) {
    throw new BadRequestException(
      `name must be 1 to ${LABEL_NAME_MAX} characters`,
    );
  }
  return text;
}

export function labelColor(color: unknown): LabelColor {
  if (!LABEL_COLORS.includes(color as LabelColor)) {
    throw new BadRequestException(
      `color must be one of ${LABEL_COLORS.join(', ')}`,
    );
  }
  return color as LabelColor;
}

@Injectable()
export class LabelsService {
  constructor(
    private readonly labels: LabelRepository,
    private readonly auditLog: AuditLogService,
  ) {}

  async list(accountId: string): Promise<LabelView[]> {
    const rows = await this.labels.listOf(accountId);
    return rows.map((row) => this.map(row));
  }

  /** One of the account's labels (404 for none, or another account's). */
  async find(accountId: string, labelId: string): Promise<LabelView> {
    const label = await this.labels.find(accountId, labelId);
    if (!label) throw new NotFoundException(LABEL_NOT_FOUND);
    return this.map(label);
  }

  async create(
    accountId: string,
    input: { name: unknown; color?: unknown },
    by: LabelActor = SYSTEM_ACTOR,
  ): Promise<LabelView> {
    const label = this.labels.create({
      id: newUlid(),
      accountId,
      name: labelName(input.name),
      color: input.color === undefined ? 'gray' : labelColor(input.color),
      createdAt: new Date(),
    });
    await this.write(
      event(label, by, 'label.created', {
        name: label.name,
        color: label.color,
      }),
      async (manager) => {
        await this.labels.insertIn(manager, label);
        return true;
      },
    );
    return this.map(label);
  }

  /** Renames or recolours; a change that changes nothing is no event. */
  async update(
    accountId: string,
    labelId: string,
    input: { name?: unknown; color?: unknown },
    by: LabelActor = SYSTEM_ACTOR,
  ): Promise<LabelView> {
    const label = await this.labels.find(accountId, labelId);
    if (!label) throw new NotFoundException(LABEL_NOT_FOUND);
    const name = input.name === undefined ? label.name : labelName(input.name);
    const color =
      input.color === undefined ? label.color : labelColor(input.color);
    const details: AuditDetails = {};
    if (name !== label.name) details.name = { before: label.name, after: name };
    if (color !== label.color) {
      details.color = { before: label.color, after: color };
    }
    if (Object.keys(details).length === 0) return this.map(label);
    const updated = await this.write(
      event(label, by, 'label.updated', details),
      async (manager) =>
        this.labels.updateIn(manager, accountId, labelId, { name, color }),
    );
    // Deleted meanwhile.
    if (!updated) throw new NotFoundException(LABEL_NOT_FOUND);
    return this.map(Object.assign(label, { name, color }));
  }

  /** Deletes the label; it comes off every submission that had it. */
  async remove(
    accountId: string,
    labelId: string,
    by: LabelActor = SYSTEM_ACTOR,
  ): Promise<void> {
    const label = await this.labels.find(accountId, labelId);
    if (!label) throw new NotFoundException(LABEL_NOT_FOUND);
    const removed = await this.auditLog.recordChange(
      event(label, by, 'label.deleted', {
        name: label.name,
        color: label.color,
      }),
      async (manager) => this.labels.deleteIn(manager, accountId, labelId),
    );
    if (!removed) throw new NotFoundException(LABEL_NOT_FOUND);
  }

  /** The ids of the account's labels by these names; an unknown name → 400. */
  async idsOf(accountId: string, names: readonly string[]): Promise<string[]> {
    const unique = [...new Set(names.map((name) => labelName(name)))];
    if (unique.length === 0) return [];
    const rows = await this.labels.withNames(accountId, unique);
    const byName = new Map(rows.map((row) => [row.name.toLowerCase(), row.id]));
    const unknown = unique.filter((name) => !byName.has(name.toLowerCase()));
    if (unknown.length > 0) {
      throw new BadRequestException(
        `Unknown label: ${unknown.join(', ')} (create labels with POST /api/v1/account/labels)`,
      );
    }
    return unique.map((name) => byName.get(name.toLowerCase())!);
  }

  /** The id of the account's label of this name, or undefined (a filter then matches none). */
  async findId(accountId: string, name: string): Promise<string | undefined> {
    const row = await this.labels.findByName(accountId, name.trim());
    return row?.id;
  }

  /** The change and its event in one transaction; a name the account has → 409. */
  private async write(
    record: AuditRecord,
    change: Parameters<AuditLogService['recordChange']>[1],
  ): Promise<boolean> {
    try {
      return await this.auditLog.recordChange(record, change);
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictException(LABEL_TAKEN);
      throw error;
    }
  }

  private map(row: Label): LabelView {
    return {
      id: row.id,
      name: row.name,
      color: row.color,
      createdAt: new Date(row.createdAt).toISOString(),
    };
  }
}

function event(
  label: Label,
  actor: LabelActor,
  action: 'label.created' | 'label.updated' | 'label.deleted',
  details: AuditDetails,
): AuditRecord {
  return {
    accountId: label.accountId,
    actor,
    action,
    target: { type: 'label', id: label.id },
    details,
  };
}
