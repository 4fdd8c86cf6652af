// An account's labels: listed by any role, made and changed with `submissions.work`.
import {
  BadRequestException,
  ConflictException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import { isUniqueViolation } from '../../common/database/driver-errors.js';
import { newUlid } from '../../common/values/ulid.js';
import {
  type Label,
  LABEL_COLORS,
  LABEL_NAME_MAX,
  type LabelColor,
} from './label.entity.js';
import { LabelRepository } from './label.repository.js';

export interface LabelView {
  id: string;
  name: string;
  color: LabelColor;
  createdAt: string;
}

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
  constructor(private readonly labels: LabelRepository) {}

  async list(accountId: string): Promise<LabelView[]> {
    const rows = await this.labels.listOf(accountId);
    return rows.map((row) => this.map(row));
  }

  async create(
    accountId: string,
    input: { name: unknown; color?: unknown },
  ): Promise<LabelView> {
    const label = this.labels.create({
      id: newUlid(),
      accountId,
      name: labelName(input.name),
      color: input.color === undefined ? 'gray' : labelColor(input.color),
    });
    await this.save(label);
    return this.map(label);
  }

  async update(
    accountId: string,
    labelId: string,
    input: { name?: unknown; color?: unknown },
  ): Promise<LabelView> {
    const label = await this.labels.find(accountId, labelId);
    if (!label) throw new NotFoundException(LABEL_NOT_FOUND);
    if (input.name !== undefined) label.name = labelName(input.name);
    if (input.color !== undefined) label.color = labelColor(input.color);
    await this.save(label);
    return this.map(label);
  }

  async remove(accountId: string, labelId: string): Promise<void> {
    if (!(await this.labels.delete(accountId, labelId))) {
      throw new NotFoundException(LABEL_NOT_FOUND);
    }
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

  private async save(label: Label): Promise<void> {
    try {
      await this.labels.save(label);
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
