import { Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ID } from '../../common/database/columns.js';
import { Submission } from '../submission.entity.js';
import { Label } from './label.entity.js';

/** A label on a submission; both sides cascade, so neither outlives the other. */
@Entity('submission_label')
export class SubmissionLabel {
  @PrimaryColumn(ID)
  submissionId: string;

  /** The label filter walks this index: a label's submissions. */
  @Index('IDX_submission_label_label')
  @PrimaryColumn(ID)
  labelId: string;

  @ManyToOne(() => Submission, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'submissionId' })
  submission?: Submission;

  @ManyToOne(() => Label, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'labelId' })
  label?: Label;
}
