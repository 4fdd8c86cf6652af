import { SqlFile } from '../../../test/support/sql-file.js';
import { DELIVERY_COLUMNS } from './delivery-columns.js';
import { DeliverySql } from './delivery-sql.js';
import type { SqlDialect } from '../../common/database/sql-statement.js';

// The SQL of every outbox statement, on both dialects, kept under review: a change to a
// statement (the claim's index walk, a lock, the duplicate rule of an expansion) shows up
// in the snapshot.
const NOW = new Date('2026-03-01T12:00:00.123Z');
const UNTIL = new Date('2026-03-01T12:00:10.123Z');
const DELIVERY = {
  id: '01JDELIVERY000000000000000',
  formId: 'form-1',
  accountId: 'account-1',
  submissionId: '01JSUBMISSION0000000000000',
  channel: 'email' as const,
  target: 'owner@example.com',
  event: 'submission.created',
  payload: '{"_subject":"Hello"}',
  createdAt: new Date('2026-03-01T11:59:59.000Z'),
};

describe.each<SqlDialect>(['mysql', 'sqlite'])(
  'outbox SQL on %s',
  (dialect) => {
    const sql = new DeliverySql(dialect);
    const file = new SqlFile('DeliverySql');

    file.section(
      'adds a batch event, and reads, locks and deletes events',
      () => {
        file.add('insertEvent', sql.insertEvent());
        file.add('nextEvents', sql.nextEvents(2));
        file.add('lockEvents', sql.lockEvents(['e1', 'e2']));
        file.add('deleteEvents', sql.deleteEvents(['e1', 'e2']));
      },
    );

    file.section(
      'counts the backlog by channel in the database, bounded',
      () => {
        file.add('backlogCounts', sql.backlogCounts(10_000));
        file.add('eventsWaiting', sql.eventsWaiting(10_000));
      },
    );

    file.section(
      'writes deliveries, leaving alone one that exists for the submission and target',
      () => {
        file.add(
          'insertDeliveries',
          sql.insertDeliveries([
            DELIVERY,
            {
              ...DELIVERY,
              id: '01JDELIVERY000000000000001',
              submissionId: null,
            },
          ]),
        );
      },
    );

    file.section('finds the accounts and targets with due deliveries', () => {
      if (dialect === 'mysql') file.add('dueGroups', sql.dueGroups(NOW));
      else {
        file.add('nextGroup', sql.nextGroup('pending'));
        file.add(
          'nextGroup',
          sql.nextGroup('failed', { accountId: 'account-1', target: 'hook-1' }),
        );
        file.add(
          'nextGroup',
          sql.nextGroup('failed', { accountId: 'account-1' }),
        );
      }
    });

    file.section(
      "reads each group's longest due, locks and leases them",
      () => {
        file.add(
          'candidates',
          sql.candidates(
            [
              { accountId: 'account-1', target: 'hook-1', take: 2 },
              { accountId: 'account-2', target: 'a@example.com', take: 1 },
            ],
            NOW,
          ),
        );
        file.add('lockCandidates', sql.lockCandidates(['d1', 'd2'], NOW));
        file.add('lease', sql.lease(['d1', 'd2'], 'worker-1', UNTIL));
        file.add('renew', sql.renew(['d1'], 'worker-1', UNTIL));
        file.add('release', sql.release(['d1'], 'worker-1', NOW));
      },
    );

    file.section('records attempts and their outcome', () => {
      file.add(
        'insertAttempts',
        sql.insertAttempts([
          {
            id: 'a1',
            deliveryId: 'd1',
            at: NOW,
            statusCode: 200,
            error: null,
            durationMs: 12,
          },
          {
            id: 'a2',
            deliveryId: 'd2',
            at: NOW,
            statusCode: null,
            error: 'connect ECONNREFUSED',
            durationMs: 3,
          },
        ]),
      );
      file.add(
        'recordAttempt',
        sql.recordAttempt({
          id: 'd2',
          owner: 'worker-1',
          status: 'failed',
          nextAttemptAt: UNTIL,
          lastStatusCode: null,
          lastError: 'connect ECONNREFUSED',
          lastDurationMs: 3,
          deliveredAt: null,
        }),
      );
      file.add(
        'recordAttempts',
        sql.recordAttempts(
          [
            {
              id: 'd1',
              owner: 'worker-1',
              status: 'succeeded',
              nextAttemptAt: null,
              lastStatusCode: 200,
              lastError: null,
              lastDurationMs: 12,
              deliveredAt: NOW,
            },
            {
              id: 'd2',
              owner: 'worker-1',
              status: 'failed',
              nextAttemptAt: UNTIL,
              lastStatusCode: null,
              lastError: 'connect ECONNREFUSED',
              lastDurationMs: 3,
              deliveredAt: null,
            },
          ],
          'worker-1',
        ),
      );
    });

    file.section(
      'retries a delivery unless it changed or is being sent',
      () => {
        file.add('retry', sql.retry('d1', 'dead', NOW));
      },
    );

    file.section(
      "walks old deliveries and a webhook's, and deletes them with their attempts",
      () => {
        file.add('oldPage', sql.oldPage('', '01JCUTOFF00000000000000000', 500));
        file.add('webhookPage', sql.webhookPage('hook-1', 500));
        file.add('deleteAttemptsOf', sql.deleteAttemptsOf(['d1', 'd2']));
        file.add('deleteDeliveries', sql.deleteDeliveries(['d1', 'd2']));
      },
    );

    file.section('deletes the deliveries of submissions being deleted', () => {
      file.add(
        'deleteOfSubmissions',
        sql.deleteOfSubmissions('form-1', ['s1', 's2']),
      );
    });

    it('reads every column of a locked delivery', () => {
      expect(sql.lockCandidates(['d1'], NOW).sql).toContain(
        DELIVERY_COLUMNS.map((c) => sql.e(c)).join(', '),
      );
    });

    it('builds every statement as __sql__/delivery.<dialect>.sql holds it', async () => {
      await expect(file.text()).toMatchFileSnapshot(
        `./__sql__/delivery.${dialect}.sql`,
      );
    });
  },
);
