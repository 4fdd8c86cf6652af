// /api/v1/account/members with account keys: the list every key role reads, changing and
// removing members with an admin key, and every refusal: a role lacking members.manage, a
// role above the key's own, an owner's membership, another account's member.
import { Membership } from '../../../src/accounts/membership.entity.js';
import {
  createAccount,
  createAccountApiKey,
  createMember,
  type TestAccount,
} from '../../factories/accounts.js';
import { errorBody } from '../../support/errors.js';
import { expectProblem } from '../../support/answers.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('members API (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const members = (apiKey: string) =>
    request(`${t.url}/api/v1/account/members`, { apiKey });
  const patchMember = (apiKey: string, userId: string, json: unknown) =>
    request(`${t.url}/api/v1/account/members/${userId}`, {
      method: 'PATCH',
      apiKey,
      json,
    });
  const deleteMember = (apiKey: string, userId: string) =>
    request(`${t.url}/api/v1/account/members/${userId}`, {
      method: 'DELETE',
      apiKey,
    });
  const role = (accountId: string, userId: string) =>
    t.dataSource
      .getRepository(Membership)
      .findOneBy({ accountId, userId })
      .then((row) => row?.role ?? null);

  describe('members', () => {
    let acme: TestAccount;

    beforeAll(async () => {
      acme = await createAccount(t);
    });

    it('lists the members to every key role, who joined first first', async () => {
      const editor = await createMember(t, acme.account.id, 'editor');
      const viewerKey = await createAccountApiKey(
        t,
        acme.account.id,
        'reader',
        'viewer',
      );
      const res = await members(viewerKey);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([
        {
          userId: acme.user.id,
          email: acme.user.email,
          role: 'owner',
          twoFactor: false,
          createdAt: expect.stringMatching(ISO_MS),
          lastSignInAt: null,
        },
        {
          userId: editor.id,
          email: editor.email,
          role: 'editor',
          twoFactor: false,
          createdAt: expect.stringMatching(ISO_MS),
          lastSignInAt: null,
        },
      ]);
    });

    it("changes a member's role with an admin key, at most to the key's own", async () => {
      const member = await createMember(t, acme.account.id, 'viewer');
      const res = await patchMember(acme.apiKey, member.id, {
        role: 'developer',
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        userId: member.id,
        email: member.email,
        role: 'developer',
        twoFactor: false,
        createdAt: expect.stringMatching(ISO_MS),
        lastSignInAt: null,
      });
      expect(await role(acme.account.id, member.id)).toBe('developer');

      // A developer key lacks members.manage altogether.
      const developerKey = await createAccountApiKey(
        t,
        acme.account.id,
        'ci',
        'developer',
      );
      const refused = await patchMember(developerKey, member.id, {
        role: 'viewer',
      });
      expectProblem(refused, 403, errorBody('This key cannot manage members'));
      expect(await role(acme.account.id, member.id)).toBe('developer');
    });

    it('refuses owner as a role (400), and an owner membership to any key (403)', async () => {
      const member = await createMember(t, acme.account.id, 'viewer');
      for (const body of [{ role: 'owner' }, { role: 'boss' }]) {
        const res = await patchMember(acme.apiKey, member.id, body);
        expectProblem(
          res,
          400,
          errorBody('Validation failed', [
            'role must be one of the following values: viewer, editor, developer, admin',
          ]),
        );
      }
      const empty = await patchMember(acme.apiKey, member.id, {});
      expectProblem(
        empty,
        400,
        errorBody('Validation failed', ['role is required']),
      );
      const extra = await patchMember(acme.apiKey, member.id, {
        role: 'viewer',
        email: 'x@example.com',
      });
      expect(extra.status).toBe(400);

      const owner = await patchMember(acme.apiKey, acme.user.id, {
        role: 'admin',
      });
      expectProblem(
        owner,
        403,
        errorBody("This key cannot change an owner's membership"),
      );
      const removeOwner = await deleteMember(acme.apiKey, acme.user.id);
      expectProblem(
        removeOwner,
        403,
        errorBody("This key cannot change an owner's membership"),
      );
      expect(await role(acme.account.id, acme.user.id)).toBe('owner');
      expect(await role(acme.account.id, member.id)).toBe('viewer');
    });

    it('removes a member (204), and answers 404 for another account’s or an unknown one', async () => {
      const member = await createMember(t, acme.account.id, 'editor');
      const other = await createAccount(t);
      const outsider = await createMember(t, other.account.id, 'viewer');

      for (const userId of [outsider.id, 'nobody', 'x'.repeat(40)]) {
        const patched = await patchMember(acme.apiKey, userId, {
          role: 'viewer',
        });
        expectProblem(patched, 404, errorBody('Member not found'));
        expect((await deleteMember(acme.apiKey, userId)).status).toBe(404);
      }
      expect(await role(other.account.id, outsider.id)).toBe('viewer');

      const removed = await deleteMember(acme.apiKey, member.id);
      expect(removed.status).toBe(204);
      expect(removed.text).toBe('');
      expect(await role(acme.account.id, member.id)).toBeNull();
      expect((await deleteMember(acme.apiKey, member.id)).status).toBe(404);
    });

    it('refuses form keys and keys without a key', async () => {
      const form = await request(`${t.url}/api/v1/forms`, {
        apiKey: acme.apiKey,
        json: { name: 'Contact' },
      });
      expect(form.status).toBe(201);
      const byFormKey = await members(form.body.apiKey as string);
      expect(byFormKey.status).toBe(403);
      expect((await request(`${t.url}/api/v1/account/members`)).status).toBe(
        401,
      );
    });
  });
});
