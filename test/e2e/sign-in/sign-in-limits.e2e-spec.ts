// Log-in and sign-up limits of the dashboard, counted like the submit route's: per client
// (IPv4 address, IPv6 /64, `::ffff:` folded), shared through Redis when REDIS_URL is set,
// and never a per-email lock that a stranger could trigger. Loopback is a trusted proxy
// here, so each test speaks for the client addresses it needs.
import { describeWhen, NEEDS_REDIS } from '../../support/skips.js';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Account } from '../../../src/accounts/account.entity.js';
import { DashboardSession } from '../../../src/dashboard/session/dashboard-session.entity.js';
import { createAccount } from '../../factories/accounts.js';
import { DashboardClient, textOf } from '../../support/dashboard-client.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import {
  createTestDatabase,
  usingMysql,
  type TestDatabase,
} from '../../support/test-database.js';

let counter = 0;
const freshEmail = () => `limits${++counter}-${Date.now()}@example.com`;

function clientAt(t: TestApp, ip: string): DashboardClient {
  const client = new DashboardClient(t.url);
  client.headers['x-forwarded-for'] = ip;
  return client;
}

function failLogin(client: DashboardClient, email: string) {
  return client.post('/dashboard/login', {
    email,
    password: 'wrong-password-1',
  });
}

describe('dashboard sign-in and sign-up limits (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { TRUST_PROXY: '127.0.0.1' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  const sessions = () => t.dataSource.getRepository(DashboardSession).count();
  const accounts = () => t.dataSource.getRepository(Account).count();

  it('counts failed log-ins from every address of one IPv6 /64 as one client', async () => {
    for (let i = 1; i <= 10; i++) {
      const res = await failLogin(
        clientAt(t, `2001:db8:aa:1::${i.toString(16)}`),
        freshEmail(),
      );
      expect(res.status).toBe(401);
    }
    const blocked = await failLogin(
      clientAt(t, '2001:db8:aa:1:ffff:ffff:ffff:fffe'),
      freshEmail(),
    );
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(800);
    expect(blocked.headers.get('content-type')).toMatch(/^text\/html/);
    expect(textOf(blocked.html)).toMatch(
      /Too many attempts\. Please wait 15 minutes/,
    );
    // The next /64 is another client.
    const neighbour = await failLogin(
      clientAt(t, '2001:db8:aa:2::1'),
      freshEmail(),
    );
    expect(neighbour.status).toBe(401);
  });

  it('counts sign-ups from every address of one IPv6 /64 as one client', async () => {
    const before = await accounts();
    for (let i = 1; i <= 10; i++) {
      const res = await clientAt(t, `2001:db8:bb:1::${i.toString(16)}`).post(
        '/dashboard/signup',
        { email: `bad-${i}`, password: 'x', confirmPassword: 'x' },
      );
      expect(res.status).toBe(400);
    }
    const blocked = await clientAt(t, '2001:db8:bb:1::ffff').signUp(
      freshEmail(),
    );
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(800);
    expect(blocked.setCookies.join()).not.toMatch(/dashboard_session=[^;]/);
    expect(await accounts()).toBe(before);
    expect(
      (await clientAt(t, '2001:db8:bb:2::1').signUp(freshEmail())).status,
    ).toBe(303);
    expect(await accounts()).toBe(before + 1);
  });

  it('counts an IPv4-mapped IPv6 address as its IPv4 address', async () => {
    for (let i = 1; i <= 10; i++) {
      const res = await failLogin(
        clientAt(t, '::ffff:198.51.100.60'),
        freshEmail(),
      );
      expect(res.status).toBe(401);
    }
    const blocked = await failLogin(clientAt(t, '198.51.100.60'), freshEmail());
    expect(blocked.status).toBe(429);
  });

  it('makes one client wait longer and longer for one email, while the owner logs in elsewhere', async () => {
    const { user } = await createAccount(t, freshEmail());
    const guesser = clientAt(t, '203.0.113.140');
    for (let i = 1; i <= 4; i++) {
      expect((await failLogin(guesser, user.email)).status).toBe(401);
    }
    // The 4th failure set a 4 s wait for this client and this email.
    const waiting = await guesser.logIn(user.email);
    expect(waiting.status).toBe(429);
    expect(Number(waiting.headers.get('retry-after'))).toBeGreaterThanOrEqual(
      1,
    );
    expect(Number(waiting.headers.get('retry-after'))).toBeLessThanOrEqual(4);
    expect(textOf(waiting.html)).toMatch(
      /Too many attempts\. Please wait [1-4] seconds? and try again\./,
    );
    expect(guesser.cookies.has('dashboard_session')).toBe(false);

    // The same client may still log in to another account …
    const other = await createAccount(t, freshEmail());
    expect((await guesser.logIn(other.user.email)).status).toBe(303);
    // … and the owner, from anywhere else, is not affected at all.
    const sessionsBefore = await sessions();
    const owner = clientAt(t, '203.0.113.141');
    const res = await owner.logIn(user.email);
    expect(res.status).toBe(303);
    expect(res.location).toBe('/dashboard/forms');
    expect(await sessions()).toBe(sessionsBefore + 1);
  });
});

const SHARED_REDIS = process.env.TEST_REDIS_URL;
const describeRedis = describeWhen(Boolean(SHARED_REDIS), NEEDS_REDIS);

describeRedis('dashboard limits shared through Redis (e2e)', () => {
  let database: TestDatabase;
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    if (usingMysql()) {
      database = await createTestDatabase();
    } else {
      const dir = mkdtempSync(join(tmpdir(), 'formgate-limits-'));
      database = {
        url: `sqlite:${join(dir, 'shared.sqlite')}`,
        drop: () =>
          Promise.resolve(rmSync(dir, { recursive: true, force: true })),
      };
    }
    const redis = new URL(SHARED_REDIS!);
    redis.searchParams.set(
      'keyPrefix',
      `formgate-test-${process.pid}-${randomBytes(4).toString('hex')}:`,
    );
    const env = { TRUST_PROXY: '127.0.0.1', REDIS_URL: redis.toString() };
    first = await createTestApp({ env, database });
    second = await createTestApp({ env, database });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await database?.drop();
  });

  it('refuses on one instance a client that failed ten times on another', async () => {
    for (let i = 1; i <= 10; i++) {
      const res = await failLogin(
        clientAt(first, '2001:db8:cc::1'),
        freshEmail(),
      );
      expect(res.status).toBe(401);
    }
    const blocked = await failLogin(
      clientAt(second, '2001:db8:cc::2'),
      freshEmail(),
    );
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(800);
  });

  it('shares the growing wait of a client for one email', async () => {
    const { user } = await createAccount(first, freshEmail());
    for (let i = 1; i <= 4; i++) {
      expect(
        (await failLogin(clientAt(first, '203.0.113.150'), user.email)).status,
      ).toBe(401);
    }
    const waiting = await clientAt(second, '203.0.113.150').logIn(user.email);
    expect(waiting.status).toBe(429);
    expect(
      (await clientAt(second, '203.0.113.151').logIn(user.email)).status,
    ).toBe(303);
  });
});
