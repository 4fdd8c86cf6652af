// The built server killed with SIGKILL while changes are being answered: every change that
// was answered has its event, no event outlives a change that rolled back, and the CLI's
// audit:verify walks the chains (exit 0), then names the first event that does not match
// once a row is edited or deleted (exit 1). The account key comes from the CLI, as actor cli.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import {
  beginDurableRun,
  type DurableRun,
} from '../../support/durable-server.js';
import { waitFor } from '../../support/server-process.js';

const SECRET = 'audit-durability-secret-audit-durability-01';
const CLI_JS = resolve('dist/src/cli.js');
const LANES = 8;

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

describe('audit events across a crash (e2e, server process)', () => {
  let run: DurableRun;

  beforeEach(async () => {
    run = await beginDurableRun('audit', {
      APP_SECRET: SECRET,
      LOG_LEVEL: 'warn',
    });
  });
  afterEach(() => run.end());

  const query = <T>(sql: string, params: unknown[] = []) =>
    run.query<T>(sql, params);

  function cli(args: string[]): Promise<CliResult> {
    return new Promise((resolvePromise, reject) => {
      const child = spawn(process.execPath, [CLI_JS, ...args], {
        cwd: run.workdir,
        env: { PATH: process.env.PATH ?? '', ...run.env },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
      child.stdin.end('');
    });
  }

  const started = () => run.start();

  it('keeps every answered change with its event through kill -9, and verifies', async () => {
    let server = await started();
    const made = await cli([
      'accounts:create',
      '--email',
      'audit-owner@example.com',
      '--password',
      'correct-horse-42',
    ]);
    expect(made.code).toBe(0);
    const { accountId, apiKey } = JSON.parse(
      made.stdout.trim().split('\n').at(-1)!,
    );
    const [keyEvent] = await query<{ action: string; actorType: string }>(
      'SELECT action, actorType FROM audit_event WHERE accountId = ?',
      [accountId],
    );
    expect(keyEvent).toEqual({
      action: 'account_key.created',
      actorType: 'cli',
    });

    const created = await fetch(`${server.url}/api/v1/forms`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body: JSON.stringify({ name: 'start' }),
    });
    expect(created.status).toBe(201);
    const formId = ((await created.json()) as { id: string }).id;

    const answered: string[] = [];
    let stop = false;
    const lanes = Array.from({ length: LANES }, async (_, lane) => {
      for (let n = lane; !stop; n += LANES) {
        const res = await fetch(`${server.url}/api/v1/forms/${formId}`, {
          method: 'PATCH',
          headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
          body: JSON.stringify({ name: `n${n}` }),
        }).catch(() => undefined);
        if (!res) return;
        if (res.status === 200) answered.push(`n${n}`);
        await res.arrayBuffer().catch(() => undefined);
      }
    });
    await waitFor(
      async () => answered.length >= 60,
      30_000,
      '60 answered changes',
    );
    server.child.kill('SIGKILL');
    await server.exited;
    stop = true;
    await Promise.all(lanes);

    const events = await query<{ details: string; seq: number }>(
      "SELECT details, seq FROM audit_event WHERE accountId = ? AND action = 'form.updated' ORDER BY seq",
      [accountId],
    );
    const recorded = events.map(
      (event) =>
        (JSON.parse(event.details) as { name: { after: string } }).name.after,
    );
    // Every answered change has its event; each event's change is the one stored before the next.
    for (const name of answered) expect(recorded).toContain(name);
    const [form] = await query<{ name: string }>(
      'SELECT name FROM form WHERE id = ?',
      [formId],
    );
    expect(form.name).toBe(recorded.at(-1));

    server = await started();
    const verified = await cli(['audit:verify']);
    expect(verified.code).toBe(0);
    expect(
      JSON.parse(verified.stdout.trim().split('\n').at(-1)!),
    ).toMatchObject({
      result: 'ok',
      accounts: '1',
    });
    server.child.kill('SIGTERM');
    await server.exited;

    const rows = await query<{ id: string; seq: number }>(
      'SELECT id, seq FROM audit_event WHERE accountId = ? ORDER BY seq',
      [accountId],
    );
    const middle = rows[Math.floor(rows.length / 2)];
    await query(
      'UPDATE audit_event SET details = \'{"name":"forged"}\' WHERE id = ?',
      [middle.id],
    );
    const edited = await cli(['audit:verify', '--account', accountId]);
    expect(edited.code).toBe(1);
    expect(edited.stderr).toContain(`event ${middle.id}`);

    await query('DELETE FROM audit_event WHERE id = ?', [middle.id]);
    const deleted = await cli(['audit:verify']);
    expect(deleted.code).toBe(1);
    expect(deleted.stderr).toContain(
      `event ${rows[Math.floor(rows.length / 2) + 1].id}`,
    );
  }, 120_000);
});
