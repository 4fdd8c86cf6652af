// What the Labels page shows (labels.eta, label-delete.eta): the account's labels with their
// colours, and — for those who work submissions (DESIGN 17: editor and above) — the forms
// that make, rename, recolour and delete them, with what a refused post typed.
import { Injectable } from '@nestjs/common';
import { roleHas } from '../../auth/permissions.js';
import {
  LABEL_COLORS,
  LABEL_NAME_MAX,
  type LabelColor,
} from '../../submissions/inbox/label.entity.js';
import {
  LabelsService,
  type LabelView,
} from '../../submissions/inbox/labels.service.js';
import type { DashboardContext } from '../dashboard-context.js';
import { PageErrors } from '../page-errors.js';

export const LABEL_NOTICES: Record<string, string> = {
  created: 'Label created.',
  saved: 'Label saved.',
  deleted: 'The label was deleted and taken off every submission that had it.',
};

/** The inputs of a label's form: the new label's, or one row's. */
export interface LabelInput {
  name: string;
  color: string;
}

/** The names of a label row's inputs (their element ids too). */
export function rowField(labelId: string, input: keyof LabelInput): string {
  return `label-${labelId}-${input}`;
}

export interface LabelRow extends LabelView {
  /** What the row's inputs hold: the label, or what a refused change typed. */
  input: LabelInput;
}

/** labels.eta. */
export interface LabelsPageView {
  accountName: string;
  labels: LabelRow[];
  colors: ReadonlyArray<{ value: LabelColor; name: string }>;
  nameMax: number;
  /** May make and change labels (`submissions.work`). */
  canManage: boolean;
  /** The new label's inputs. */
  create: LabelInput;
  errors: PageErrors;
  notice: string | undefined;
}

/** What a refused post typed, and what to say. */
export interface LabelsPageState {
  create?: LabelInput;
  /** A refused change of one label. */
  edit?: { labelId: string; input: LabelInput };
  errors?: PageErrors;
  notice?: string;
}

/** label-delete.eta. */
export interface LabelDeleteView {
  label: LabelView;
}

@Injectable()
export class LabelsPageBuilder {
  constructor(private readonly labels: LabelsService) {}

  async build(
    context: DashboardContext,
    state: LabelsPageState = {},
  ): Promise<LabelsPageView> {
    const labels = await this.labels.list(context.account.id);
    return {
      accountName: context.account.name,
      labels: labels.map((label) => ({
        ...label,
        input:
          state.edit?.labelId === label.id
            ? state.edit.input
            : { name: label.name, color: label.color },
      })),
      colors: LABEL_COLORS.map((value) => ({
        value,
        name: value.charAt(0).toUpperCase() + value.slice(1),
      })),
      nameMax: LABEL_NAME_MAX,
      canManage: roleHas(context.account.role, 'submissions.work'),
      create: state.create ?? { name: '', color: 'gray' },
      errors: state.errors ?? new PageErrors(),
      notice: state.notice,
    };
  }
}
