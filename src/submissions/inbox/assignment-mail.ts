// How the inbox has an assignee mailed, declared here and provided by the email
// notifications (which sit above submissions/): section 11's caps, a link, no visitor text.
export interface Assignment {
  accountId: string;
  formId: string;
  /** The submissions just assigned to them (a bulk assignment sends one mail). */
  submissionIds: readonly string[];
  assigneeId: string;
  /** Who assigned them: a member, or null for a key. */
  byUserId: string | null;
}

export interface AssignmentMail {
  assigned(assignment: Assignment): Promise<void>;
}

export const ASSIGNMENT_MAIL = Symbol('formgate.assignmentMail');
