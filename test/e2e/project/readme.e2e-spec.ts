// The README's quick start, run as written: its first commands are the two set-up steps,
// and the "first submission" block, pasted into a shell against a running server, creates
// an account, a form and a submission and reads it back.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  startServer,
  statusOf,
  waitFor,
  type ServerProcess,
} from '../../support/server-process.js';

const README = readFileSync('README.md', 'utf8');
const SECRET = 'readme-test-secret-readme-test-secret-012345';

/** The fenced code blocks of a README section, in order. */
function codeBlocks(section: string): Array<{ lang: string; code: string }> {
  const start = README.indexOf(section);
  expect(start, `README has "${section}"`).toBeGreaterThanOrEqual(0);
  const rest = README.slice(start + section.length);
  const next = rest.search(/^#{2,3} /m);
  const body = next === -1 ? rest : rest.slice(0, next);
  return [...body.matchAll(/```(\w*)\n([\s\S]*?)```/g)].map((m) => ({
    lang: m[1],
    code: m[2],
  }));
}

describe('README quick start', () => {
  let workdir: string;
  let server: ServerProcess | undefined;

  beforeAll(() => {
    workdir = mkdtempSync(join(tmpdir(), 'formgate-readme-'));
  });
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
    rmSync(workdir, { recursive: true, force: true });
  });

  it('sets up with two commands', () => {
    const [setup] = codeBlocks('### 2. Install and start');
    expect(setup.code.trim().split('\n')).toEqual(['npm install', 'npm start']);
  });

  it('shows the ready line the server really prints', () => {
    const [, ready] = codeBlocks('### 2. Install and start');
    expect(ready.code).toMatch(
      /INFO: Formgate is ready at http:\/\/localhost:3000 · dashboard http:\/\/localhost:3000\/dashboard · API docs http:\/\/localhost:3000\/docs · database SQLite \.\/data\/formgate\.sqlite · a new APP_SECRET was generated into \.\/data\/secret/,
    );
  });

  it('takes a second terminal from nothing to a stored, listed submission', async () => {
    const env = {
      APP_SECRET: SECRET,
      DATABASE_URL: `sqlite:${join(workdir, 'formgate.sqlite')}`,
    };
    server = await startServer(env, { cwd: workdir });
    await waitFor(
      async () => (await statusOf(`${server!.url}/health/ready`)) === 200,
    );
    const [block] = codeBlocks('### 3. Your first submission');
    expect(block.lang).toBe('sh');
    const script =
      block.code.replaceAll('http://localhost:3000', server.url) +
      '\nprintf "FORM_ID=%s\\nFORM_KEY=%s\\n" "$FORM_ID" "$FORM_KEY"\n';
    // Run from the project directory, as the README says, with the server's settings.
    const result = spawnSync(
      'bash',
      ['--norc', '--noprofile', '-c', `set -euo pipefail\n${script}`],
      {
        encoding: 'utf8',
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? workdir,
          ...env,
        },
        timeout: 60_000,
      },
    );
    expect(result.status, result.stderr).toBe(0);
    const lines = result.stdout.trim().split('\n');
    const formId = /^FORM_ID=(.+)$/m.exec(result.stdout)?.[1];
    const formKey = /^FORM_KEY=(fgk_.+)$/m.exec(result.stdout)?.[1];
    expect(formId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(formKey).toBeDefined();
    // Step 3's answer, then step 4's list holding that submission.
    expect(JSON.parse(lines[0])).toEqual({
      success: true,
      message: 'Submission received',
    });
    const list = JSON.parse(lines[1]) as {
      data: Array<{ formId: string; data: Record<string, string> }>;
      nextCursor: string | null;
    };
    expect(list.nextCursor).toBeNull();
    expect(list.data).toHaveLength(1);
    expect(list.data[0]).toMatchObject({
      formId,
      data: { email: 'ada@example.com', message: 'Hello' },
    });
    // The owner the block created can log in to the dashboard with the README's password.
    const login = await fetch(`${server.url}/dashboard/login`);
    expect(login.status).toBe(200);
  });
});
