// A read-only account key may only read: every route of /api/v1 that is not a GET answers
// it 403. The routes are not listed by hand: they are read from the application's own
// router (every controller route Nest registered), and checked against the OpenAPI
// document, so a route added later is covered without touching this spec.
import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { MetadataScanner, ModulesContainer } from '@nestjs/core';
import { AccountsService } from '../../../src/accounts/accounts.service.js';
import { Invitation } from '../../../src/accounts/invitation.entity.js';
import { newUlid } from '../../../src/common/values/ulid.js';
import {
  createAccount,
  createMember,
  type TestAccount,
} from '../../factories/accounts.js';
import { insertDelivery } from '../../factories/deliveries.js';
import { createDomain } from '../../factories/domains.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { insertSubmissions } from '../../factories/submissions.js';
import { errorBody } from '../../support/errors.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const READ_ONLY = errorBody(
  'This API key is read-only: it may only read (GET requests)',
);

interface Route {
  method: string;
  /** Nest's form: /api/v1/forms/:id */
  path: string;
}

const joinPath = (...parts: string[]) =>
  '/' +
  parts
    .flatMap((part) => part.split('/'))
    .filter(Boolean)
    .join('/');

/** Every route the application's controllers registered, as Nest's router saw them. */
function registeredRoutes(t: TestApp): Route[] {
  const scanner = new MetadataScanner();
  const routes: Route[] = [];
  for (const module of t.app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new () => object) | null;
      if (!controller) continue;
      const base = [Reflect.getMetadata(PATH_METADATA, controller) ?? '']
        .flat()
        .map(String);
      const prototype = controller.prototype as Record<string, unknown>;
      for (const name of scanner.getAllMethodNames(prototype)) {
        const handler = prototype[name] as object;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as
          RequestMethod | undefined;
        const paths = Reflect.getMetadata(PATH_METADATA, handler) as
          string | string[] | undefined;
        if (method === undefined || paths === undefined) continue;
        for (const prefix of base) {
          for (const path of [paths].flat()) {
            routes.push({
              method: RequestMethod[method],
              path: joinPath(prefix, path),
            });
          }
        }
      }
    }
  }
  return routes;
}

describe('read-only account keys on every route (e2e)', () => {
  let t: TestApp;
  let owner: TestAccount;
  let form: TestForm;
  let readOnlyKey: string;
  const values: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        WEBHOOK_ALLOW_PRIVATE: 'true',
        // A chat channel on loopback (nothing listens: the key must never reach it).
        CHAT_ALLOWED_HOSTS: 'slack=127.0.0.1:9',
      },
    });
    owner = await createAccount(t);
    form = await createForm(t, owner.account.id);
    const [submission] = await insertSubmissions(t, form.form.id, [
      { createdAt: new Date() },
    ]);
    const domain = await createDomain(t, form.form.id, {
      domain: 'ro.example.com',
    });
    const webhook = await request(
      `${t.url}/api/v1/forms/${form.form.id}/webhooks`,
      {
        apiKey: owner.apiKey,
        json: { url: 'http://127.0.0.1:9/hook', enabled: false },
      },
    );
    expect(webhook.status).toBe(201);
    const delivery = await insertDelivery(t, {
      formId: form.form.id,
      target: webhook.body.id,
      status: 'dead',
    });
    const label = await request(`${t.url}/api/v1/account/labels`, {
      apiKey: owner.apiKey,
      json: { name: 'Hot lead', color: 'red' },
    });
    expect(label.status).toBe(201);
    const note = await request(
      `${t.url}/api/v1/forms/${form.form.id}/submissions/${submission.id}/notes`,
      { apiKey: owner.apiKey, json: { text: 'Called back' } },
    );
    expect(note.status).toBe(201);
    const channel = await request(
      `${t.url}/api/v1/forms/${form.form.id}/chat-channels`,
      {
        apiKey: owner.apiKey,
        json: {
          kind: 'slack',
          url: 'http://127.0.0.1:9/services/T0001/B0001/secret0001',
        },
      },
    );
    expect(channel.status).toBe(201);
    const created = await t.app
      .get(AccountsService)
      .createApiKey(owner.account.id, 'Reports', { readOnly: true });
    readOnlyKey = created.apiKey;
    const member = await createMember(t, owner.account.id, 'editor');
    await t.dataSource.getRepository(Invitation).save({
      id: newUlid(),
      accountId: owner.account.id,
      email: 'invited@example.com',
      role: 'viewer',
      tokenHash: 'a'.repeat(64),
      invitedByUserId: null,
      invitedByLabel: 'Reports',
      expiresAt: new Date(Date.now() + 86_400_000),
      createdAt: new Date(),
      acceptedAt: null,
      revokedAt: null,
    });
    // Real ids everywhere, so that a route the key were not refused on would act.
    Object.assign(values, {
      userId: member.id,
      id: form.form.id,
      formId: form.form.id,
      submissionId: submission.id,
      domain: domain.domain,
      webhookId: webhook.body.id,
      deliveryId: delivery.id,
      keyId: created.key.id,
      labelId: label.body.id,
      noteId: note.body.id,
      channelId: channel.body.id,
    });
  });
  afterAll(async () => {
    await t.close();
  });

  const apiRoutes = () =>
    registeredRoutes(t).filter((route) => route.path.startsWith('/api/v1/'));

  /** Row counts of every table a write could touch, and the form's own row. */
  async function snapshot(): Promise<unknown> {
    const tables = [
      'form',
      'submission',
      'form_domain',
      'webhook',
      'delivery',
      'account_api_key',
      'membership',
      'invitation',
      'label',
      'submission_label',
      'submission_note',
      'chat_channel',
    ];
    const counts: Record<string, number> = {};
    for (const table of tables) {
      const [{ n }] = await t.dataSource.query(
        `SELECT COUNT(*) AS n FROM ${table}`,
      );
      counts[table] = Number(n);
    }
    const [row] = await t.dataSource.query(
      'SELECT name, apiKeyHash, updatedAt FROM form WHERE id = ?',
      [form.form.id],
    );
    const keys = await t.dataSource.query(
      'SELECT id, revokedAt FROM account_api_key ORDER BY id',
    );
    const deliveries = await t.dataSource.query(
      'SELECT id, status, nextAttemptAt FROM delivery ORDER BY id',
    );
    return { counts, row, keys, deliveries };
  }

  it('finds the routes of the router in the OpenAPI document, and the other way round', async () => {
    const document = (await request(`${t.url}/docs-json`)).body as {
      paths: Record<string, Record<string, unknown>>;
    };
    const documented = Object.entries(document.paths)
      .filter(([path]) => path.startsWith('/api/v1/'))
      .flatMap(([path, operations]) =>
        Object.keys(operations).map(
          (method) =>
            `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`,
        ),
      );
    const registered = apiRoutes().map((r) => `${r.method} ${r.path}`);
    expect(registered.length).toBeGreaterThan(20);
    expect([...new Set(registered)].sort()).toEqual(
      [...new Set(documented)].sort(),
    );
  });

  it('lets the key read', async () => {
    const res = await request(`${t.url}/api/v1/forms/${form.form.id}`, {
      apiKey: readOnlyKey,
    });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(form.form.id);
  });

  it('answers 403 on every route that is not a GET, and nothing changes', async () => {
    const writes = apiRoutes().filter((route) => route.method !== 'GET');
    expect(writes.map((route) => route.method)).toEqual(
      expect.arrayContaining(['POST', 'PUT', 'PATCH', 'DELETE']),
    );
    const before = await snapshot();
    for (const route of writes) {
      const path = route.path.replace(/:(\w+)/g, (_match, name: string) => {
        if (!(name in values)) {
          throw new Error(
            `${route.method} ${route.path}: give :${name} a real value in this spec`,
          );
        }
        return encodeURIComponent(values[name]);
      });
      const res = await request(`${t.url}${path}`, {
        method: route.method,
        apiKey: readOnlyKey,
        json: route.method === 'DELETE' ? undefined : { name: 'Changed' },
      });
      expect(res.status, `${route.method} ${route.path}`).toBe(403);
      expect(res.body).toEqual(READ_ONLY);
    }
    expect(await snapshot()).toEqual(before);
  });
});
