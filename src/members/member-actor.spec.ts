import { ForbiddenException } from '@nestjs/common';
import {
  checkMayGive,
  checkMayManage,
  checkMayManageInvitation,
  rolesGivenBy,
  type MemberActor,
} from './member-actor.js';
import { ROLES, type Role } from '../auth/permissions.js';

const actor = (kind: MemberActor['kind'], role: Role): MemberActor => ({
  kind,
  accountId: 'acc',
  role,
  userId: kind === 'member' ? 'usr' : null,
  label: kind === 'member' ? 'ada@example.com' : 'ci',
});

function refusal(run: () => void): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(ForbiddenException);
    return (error as ForbiddenException).message;
  }
}

describe('the rules of member changes', () => {
  it('lets an owner give every role, and an admin at most admin', () => {
    for (const role of ROLES) {
      expect(
        refusal(() => checkMayGive(actor('member', 'owner'), role)),
      ).toBeUndefined();
    }
    expect(
      refusal(() => checkMayGive(actor('member', 'admin'), 'admin')),
    ).toBeUndefined();
    expect(refusal(() => checkMayGive(actor('member', 'admin'), 'owner'))).toBe(
      'You cannot make someone an owner',
    );
    expect(refusal(() => checkMayGive(actor('key', 'admin'), 'owner'))).toBe(
      'This key cannot make someone an owner',
    );
    expect(
      refusal(() => checkMayGive(actor('key', 'developer'), 'admin')),
    ).toBe('This key cannot give a role above its own');
    expect(
      refusal(() => checkMayGive(actor('member', 'editor'), 'developer')),
    ).toBe('You cannot give a role above your own');
  });

  it("keeps an owner's membership to owners, and keys away from it", () => {
    expect(
      refusal(() => checkMayManage(actor('member', 'owner'), 'owner')),
    ).toBeUndefined();
    expect(
      refusal(() => checkMayManage(actor('member', 'admin'), 'admin')),
    ).toBeUndefined();
    expect(
      refusal(() => checkMayManage(actor('member', 'admin'), 'owner')),
    ).toBe("You cannot change an owner's membership");
    expect(refusal(() => checkMayManage(actor('key', 'admin'), 'owner'))).toBe(
      "This key cannot change an owner's membership",
    );
    expect(
      refusal(() => checkMayManageInvitation(actor('key', 'admin'), 'owner')),
    ).toBe('This key cannot manage an invitation as owner');
    expect(
      refusal(() =>
        checkMayManageInvitation(actor('member', 'owner'), 'owner'),
      ),
    ).toBeUndefined();
  });

  it('offers the roles up to the actor’s own, least trusted first', () => {
    expect(rolesGivenBy({ role: 'admin' }, ROLES)).toEqual([
      'viewer',
      'editor',
      'developer',
      'admin',
    ]);
    expect(rolesGivenBy({ role: 'owner' }, ROLES)).toEqual([...ROLES]);
  });
});
