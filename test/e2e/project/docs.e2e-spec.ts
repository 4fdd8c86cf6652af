// The README and docs/ say what the service does; these run what they show. The README stays
// a front door (short, every link alive, the same snippet as the dashboard's), the docs'
// webhook receiver prints what it received (for a test event too), the mail catcher recipe
// shows a real confirmation link, and the SQLite backup recipe yields a database a server
// starts on with every submission in it.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { htmlSnippet } from '../../../src/dashboard/forms/snippets.js';
import { EmailRecipientsService } from '../../../src/notifications/email/email-recipients.service.js';
import { createAccount } from '../../factories/accounts.js';
import { createForm } from '../../factories/forms.js';
import { request } from '../../support/http.js';
import { freePort, waitFor } from '../../support/server-process.js';
import { describeWhen } from '../../support/skips.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const README = readFileSync('README.md', 'utf8');
const doc = (name: string) => readFileSync(join('docs', name), 'utf8');

/** Fenced code blocks of a Markdown text, optionally only those in `lang`. */
function blocks(text: string, lang?: string): string[] {
  return [...text.matchAll(/```(\w*)\n([\s\S]*?)```/g)]
    .filter((m) => lang === undefined || m[1] === lang)
    .map((m) => m[2]);
}

/** A child process whose output is kept, and awaited for a pattern. */
function run(
  args: string[],
  env: Record<string, string>,
): {
  child: ChildProcess;
  output: () => string;
  until(re: RegExp): Promise<void>;
} {
  const child = spawn(process.execPath, args, {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  return {
    child,
    output: () => output,
    until: (re) =>
      waitFor(async () => re.test(output), 20_000, `output matching ${re}`),
  };
}

async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

describe('README as a front door', () => {
  it('fits in 400 lines and links only to docs that exist', () => {
    expect(README.split('\n').length).toBeLessThanOrEqual(400);
    const links = [...README.matchAll(/\]\(((?:docs\/|LICENSE)[^)#]*)/g)].map(
      (m) => m[1],
    );
    expect(links.length).toBeGreaterThanOrEqual(10);
    for (const link of links) expect(existsSync(link), link).toBe(true);
    for (const topic of [
      'api.md',
      'notifications.md',
      'operations.md',
      'performance.md',
      'architecture.md',
    ]) {
      expect(README).toContain(`(docs/${topic})`);
    }
  });

  it('says how to get Node.js before the two commands, and how to run the tests', () => {
    const node = README.indexOf('### 1. Node.js');
    const install = README.indexOf('npm install\nnpm start');
    expect(node).toBeGreaterThan(0);
    expect(install).toBeGreaterThan(node);
    expect(README).toContain('```sh\nnpm test\n```');
    expect(README).toContain('## What Formgate does not do');
  });

  it('ships the MIT license that package.json names', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
      license: string;
    };
    expect(pkg.license).toBe('MIT');
    expect(readFileSync('LICENSE', 'utf8')).toMatch(/^MIT License\n/);
    expect(README).toContain('[MIT](LICENSE)');
  });

  it("shows the dashboard's own snippet, with the honeypot hidden the same way", () => {
    const [html] = blocks(README, 'html');
    expect(html.trimEnd()).toBe(
      htmlSnippet('http://localhost:3000/api/submit/FORM_ID', [
        { id: 'email', type: 'email', required: true },
        { id: 'message', type: 'textarea' },
      ]),
    );
    // Every honeypot the docs show is the dashboard's: off-screen, never display:none.
    const dashboard = htmlSnippet('x', []).split('\n');
    const at = dashboard.findIndex((line) => line.includes('_honeypot'));
    const honeypot = dashboard.slice(at, at + 2).join('\n');
    const shown = [README, doc('submitting.md')].flatMap((text) =>
      blocks(text, 'html').filter((b) => b.includes('name="_honeypot"')),
    );
    expect(shown.length).toBeGreaterThanOrEqual(2);
    for (const block of shown) {
      expect(block).toContain(honeypot);
      expect(block).not.toContain('display:none');
    }
  });
});

describe('docs/notifications.md recipes (e2e)', () => {
  let t: TestApp | undefined;
  let processes: ChildProcess[] = [];

  afterEach(async () => {
    for (const child of processes) await stop(child);
    processes = [];
    await t?.close();
    t = undefined;
  });

  it("the webhook receiver prints a test event's data and a submission's fields, never undefined", async () => {
    const receiverCode = blocks(doc('notifications.md'), 'js').find((b) =>
      b.includes("from 'standardwebhooks'"),
    );
    expect(receiverCode).toBeDefined();
    t = await createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
    const { account } = await createAccount(t);
    const { form, apiKey } = await createForm(t, account.id);
    const port = await freePort();
    const created = await request(`${t.url}/api/v1/forms/${form.id}/webhooks`, {
      apiKey,
      json: { url: `http://127.0.0.1:${port}/` },
    });
    expect(created.status).toBe(201);
    expect(receiverCode).toContain('.listen(8080)');
    // Run as the docs show it, from the project directory (where standardwebhooks resolves).
    const receiver = run(
      [
        '--input-type=module',
        '-e',
        receiverCode!.replace('.listen(8080)', `.listen(${port})`),
      ],
      { FORMGATE_WEBHOOK_SECRET: created.body.secret as string },
    );
    processes.push(receiver.child);
    await waitFor(async () => {
      const r = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST' });
      return r.status === 401;
    });
    const test = await request(
      `${t.url}/api/v1/forms/${form.id}/webhooks/${created.body.id}/test`,
      { apiKey, method: 'POST' },
    );
    expect(test.status).toBe(202);
    await receiver.until(/webhook\.test/);
    const submit = await request(`${t.url}/api/submit/${form.id}`, {
      json: { name: 'Ada', email: 'ada@example.com', message: 'Hello' },
    });
    expect(submit.status).toBe(200);
    await receiver.until(/submission /);
    const out = receiver.output();
    expect(out).not.toContain('undefined');
    expect(out).toContain(
      `webhook.test {"formId":"${form.id}","webhookId":"${created.body.id}"}`,
    );
    expect(out).toMatch(
      /submission \w{26} \{"name":"Ada","email":"ada@example\.com","message":"Hello"\}/,
    );
  });

  it('the mail catcher prints the confirmation message with its link', async () => {
    const [catcherCommand, startCommand] = blocks(
      doc('notifications.md'),
      'sh',
    ).filter((b) => b.includes('dev:smtp') || b.includes('127.0.0.1:2525'));
    expect(catcherCommand.trim()).toBe('npm run dev:smtp');
    const port = await freePort();
    const catcher = run(['scripts/dev-smtp.mjs'], {
      DEV_SMTP_PORT: String(port),
    });
    processes.push(catcher.child);
    await catcher.until(/listening on smtp:\/\/127\.0\.0\.1:\d+/);
    // The settings of the documented start command, with the catcher's port.
    const env = Object.fromEntries(
      [...startCommand.matchAll(/(\w+)=('[^']*'|\S+)/g)].map((m) => [
        m[1],
        m[2].replace(/^'|'$/g, '').replace(':2525', `:${port}`),
      ]),
    );
    expect(Object.keys(env)).toEqual(['SMTP_URL', 'MAIL_FROM']);
    t = await createTestApp({ env });
    const { account } = await createAccount(t);
    const { form, apiKey } = await createForm(t, account.id);
    const patched = await request(`${t.url}/api/v1/forms/${form.id}`, {
      method: 'PATCH',
      apiKey,
      json: { notifyEmails: ['ada@example.com'] },
    });
    expect(patched.status).toBe(200);
    await t.app.get(EmailRecipientsService).settled();
    await catcher.until(/confirm-email\/[A-Za-z0-9_-]{43}/);
    expect(catcher.output()).toMatch(
      /From: forms@example\.com\nTo: ada@example\.com\n/,
    );
    expect(catcher.output()).toContain(`${t.config.publicUrl}/confirm-email/`);
  });
});

const HAS_SQLITE3 = spawnSync('sqlite3', ['-version']).status === 0;

describeWhen(
  HAS_SQLITE3,
  'needs the sqlite3 command (apt-get install sqlite3)',
)('docs/operations.md SQLite backup (e2e)', () => {
  let dir: string;
  let t: TestApp | undefined;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'formgate-backup-'));
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('takes a consistent copy while the server runs, and a server starts on it with every submission', async () => {
    const live = join(dir, 'formgate.sqlite');
    const copy = join(dir, 'backup.sqlite');
    t = await createTestApp({ env: { DATABASE_URL: `sqlite:${live}` } });
    const { account } = await createAccount(t);
    const { form, apiKey } = await createForm(t, account.id);
    for (const name of ['Ada', 'Grace']) {
      const res = await request(`${t.url}/api/submit/${form.id}`, {
        json: { name, email: 'someone@example.com' },
      });
      expect(res.status).toBe(200);
    }
    const [recipe] = blocks(doc('operations.md'), 'sh').filter((b) =>
      b.includes('.backup'),
    );
    const script = recipe
      .replaceAll('/var/lib/formgate/formgate.sqlite', live)
      .replaceAll('/var/backups/formgate/formgate.sqlite', copy);
    // The server keeps running (and holding its WAL) while the backup is taken.
    const result = spawnSync('bash', ['-euo', 'pipefail', '-c', script], {
      encoding: 'utf8',
    });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe('ok');
    await t.close();
    t = await createTestApp({ env: { DATABASE_URL: `sqlite:${copy}` } });
    const list = await request(`${t.url}/api/v1/forms/${form.id}/submissions`, {
      apiKey,
    });
    expect(list.status).toBe(200);
    expect(
      list.body.data.map((s: { data: { name: string } }) => s.data.name),
    ).toEqual(['Grace', 'Ada']);
  });
});
