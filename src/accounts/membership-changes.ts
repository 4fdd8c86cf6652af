// Who may do what in an account is checked on every dashboard request against a short
// in-process cache (memberships.service.ts); a change of a membership (a member removed, a
// role lowered, an account renamed) must reach that cache on every instance at once. The
// bus that carries form changes between instances carries these too: forms/ provides it
// under this token (a global module), since accounts sits below forms.
export type MembershipChange =
  /** `userId` omitted: every member of the account (its name changed, or it was deleted). */
  | { kind: 'membership'; accountId: string; userId?: string }
  /** Changes may have been missed (the channel was down): every cached entry is suspect. */
  | { kind: 'reset' };

export type MembershipChangeListener = (change: MembershipChange) => void;

export interface MembershipChanges {
  /** Tells this instance's listeners at once, and the other instances' through Redis. */
  membershipChanged(accountId: string, userId?: string): void;
  /** Registers a listener; returns the function that removes it. */
  subscribeMemberships(listener: MembershipChangeListener): () => void;
}

export const MEMBERSHIP_CHANGES = Symbol('formgate.membership-changes');
