// Audit log benchmark (npm run bench:audit): what writing the audit event costs a change.
//
// On BENCH_AUDIT_DATABASE_URL (default sqlite:./data/bench-audit.sqlite; a mysql:/mariadb:
// URL works too), BENCH_AUDIT_CHANGES form updates (default 100,000) are made through the
// forms service, alternating in rounds of BENCH_AUDIT_ROUND between
//   - "without": the change as it was before the audit log — the form's UPDATE and the
//     answer built from it;
//   - "with": FormsService.patch as the API calls it — the same UPDATE and answer, in one
//     transaction with its audit event (the chain head locked, the event inserted, the
//     head moved).
// Prints each side's mean time per change and the share of a change's time the event costs
// ((with − without) / with; the target is at most 15 %). Exit code 1 above the target.
import type { AuditActor } from '../../src/audit/audit-actor.js';
import { FormRepository } from '../../src/forms/form.repository.js';
import { FormsService } from '../../src/forms/forms.service.js';
import {
  benchAccount,
  benchForm,
  openPreparingApp,
} from '../shared/bench-data.js';
import { log } from '../shared/process.js';

const env = process.env;
const DATABASE_URL =
  env.BENCH_AUDIT_DATABASE_URL ?? 'sqlite:./data/bench-audit.sqlite';
const CHANGES = Number(env.BENCH_AUDIT_CHANGES ?? 100_000);
const ROUND = Number(env.BENCH_AUDIT_ROUND ?? 500);
const TARGET_SHARE = 0.15;
const ACTOR: AuditActor = { type: 'cli', id: null, label: 'bench' };

async function main(): Promise<number> {
  const app = await openPreparingApp(DATABASE_URL);
  try {
    const account = await benchAccount(app, 'bench-audit@formgate.example');
    const form = await benchForm(app, account.id, 'Bench audit form');
    const forms = app.get(FormsService);
    const repository = app.get(FormRepository);
    let n = 0;
    const without = async () => {
      const name = `w${n++}`;
      await repository.update(form.id, form.accountId, {
        name,
        updatedAt: new Date(),
      });
      await forms.describe(Object.assign(form, { name }));
    };
    const withEvent = async () => {
      await forms.patch(form, { name: `a${n++}` }, ACTOR);
    };
    // Warm both paths (statements prepared, caches filled).
    for (let i = 0; i < Math.min(200, CHANGES / 10); i++) {
      await without();
      await withEvent();
    }
    const spent = { without: 0, with: 0 };
    let done = 0;
    while (done < CHANGES) {
      const size = Math.min(ROUND, CHANGES - done);
      const half = Math.ceil(size / 2);
      let started = process.hrtime.bigint();
      for (let i = 0; i < half; i++) await without();
      spent.without += Number(process.hrtime.bigint() - started) / 1e6;
      started = process.hrtime.bigint();
      for (let i = 0; i < size - half; i++) await withEvent();
      spent.with += Number(process.hrtime.bigint() - started) / 1e6;
      done += size;
    }
    const perWithout = spent.without / Math.ceil(CHANGES / 2);
    const perWith = spent.with / Math.floor(CHANGES / 2);
    const share = (perWith - perWithout) / perWith;
    log(
      `bench:audit on ${DATABASE_URL.split(':')[0]}: ${CHANGES} changes; without the event ${perWithout.toFixed(3)} ms, with it ${perWith.toFixed(3)} ms per change`,
    );
    log(
      `the event costs ${(share * 100).toFixed(1)} % of a change's time (target ≤ ${TARGET_SHARE * 100} %)`,
    );
    return share <= TARGET_SHARE ? 0 : 1;
  } finally {
    await app.close();
  }
}

process.exit(await main());
