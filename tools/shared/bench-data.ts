// The data a benchmark measures against, prepared through the app's own services in this
// process (the measured server is a separate process): an account, a form with contact
// fields, a given number of seeded submissions, and an API key.
import 'reflect-metadata';
import { Writable } from 'node:stream';
import { DataSource } from 'typeorm';
import { AccountsService } from '../../src/accounts/accounts.service.js';
import type { Account } from '../../src/accounts/account.entity.js';
import { createApp } from '../../src/app.setup.js';
import { loadConfig } from '../../src/config/app-config.js';
import { DatabaseStateService } from '../../src/common/database/database-state.service.js';
import { Form } from '../../src/forms/form.entity.js';
import { FormsService } from '../../src/forms/forms.service.js';
import { SubmissionRepository } from '../../src/submissions/submission.repository.js';
import { seedSubmissions } from '../submissions/seed-submissions.js';
import { BENCH_SECRET, log } from './process.js';
import { ensureDatabase } from './mysql.js';

/** Matches nothing: a search for it examines its whole per-request budget. */
export const RARE_TERM = 'no-such-text';

export type PreparingApp = Awaited<ReturnType<typeof createApp>>;

/** The app on `databaseUrl`, connected, never listening, logging nothing. */
export async function openPreparingApp(
  databaseUrl: string,
): Promise<PreparingApp> {
  // A MySQL/MariaDB database named in the URL is created when missing (the app would
  // otherwise wait for it to appear).
  if (/^(mysql|mariadb):/.test(databaseUrl)) {
    const name = new URL(databaseUrl).pathname.slice(1);
    if (name !== '') await ensureDatabase(databaseUrl, name);
  }
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    APP_SECRET: BENCH_SECRET,
    LOG_LEVEL: 'warn',
  });
  const app = await createApp(config, {
    logDestination: new Writable({ write: (_c, _e, done) => done() }),
  });
  await app.get(DatabaseStateService).whenConnected();
  return app;
}

/** The account with this email, created with a fixed password when missing. */
export async function benchAccount(
  app: PreparingApp,
  email: string,
): Promise<Account> {
  const accounts = app.get(AccountsService);
  return (
    (await accounts.findByEmail(email)) ??
    (await accounts.create(email, 'bench-password-0123456789')).account
  );
}

/** The account's form with this name (name, email, company, message), created when missing. */
export async function benchForm(
  app: PreparingApp,
  accountId: string,
  name: string,
): Promise<Form> {
  return (
    (await app
      .get(DataSource)
      .getRepository(Form)
      .findOneBy({ accountId, name })) ??
    (
      await app.get(FormsService).create(accountId, {
        name,
        fields: [
          { id: 'name', type: 'text', label: 'Name', required: true },
          { id: 'email', type: 'email', label: 'Email', required: true },
          { id: 'company', type: 'text', label: 'Company' },
          { id: 'message', type: 'textarea', label: 'Message' },
        ],
      })
    ).form
  );
}

/**
 * Seeds the form up to `rows` submissions (a first run seeds them all, later runs
 * nothing); resolves with how many it holds. The seed depends on the rows already
 * there, so a topped-up form does not repeat values.
 */
export async function seedUpTo(
  app: PreparingApp,
  formId: string,
  rows: number,
  { seed, onProgress }: { seed: number; onProgress?: (n: number) => void },
): Promise<number> {
  const submissions = app.get(SubmissionRepository);
  const existing = await submissions.countInRange(formId, {});
  if (existing < rows) {
    log(
      `Seeding ${(rows - existing).toLocaleString('en-US')} submissions into form ${formId} …`,
    );
    const started = performance.now();
    await seedSubmissions(app.get(DataSource), {
      formId,
      count: rows - existing,
      seed: seed + existing,
      onProgress,
    });
    log(`Seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  return submissions.countInRange(formId, {});
}
