// Deliveries for tests: outbox rows inserted straight through the repository, in any state
// (waiting, due later, leased by a worker), for the routes that read and retry them.
import { ulid } from 'ulid';
import { Form } from '../../src/forms/form.entity.js';
import { Delivery } from '../../src/notifications/deliveries/delivery.entity.js';
import { DeliveryAttempt } from '../../src/notifications/deliveries/delivery-attempt.entity.js';
import type { TestApp } from '../support/test-app.js';

export async function insertDelivery(
  t: TestApp,
  fields: Pick<Delivery, 'formId' | 'target'> & Partial<Delivery>,
): Promise<Delivery> {
  const repo = t.dataSource.getRepository(Delivery);
  const createdAt = fields.createdAt ?? new Date();
  // The form's account, as the worker writes it.
  const accountId =
    fields.accountId ??
    (
      await t.dataSource
        .getRepository(Form)
        .findOneByOrFail({ id: fields.formId })
    ).accountId;
  const row = repo.create({
    id: ulid(createdAt.getTime()),
    accountId,
    channel: 'webhook',
    event: 'webhook.test',
    submissionId: null,
    payload: null,
    status: 'pending',
    attempts: 0,
    scheduleStart: 0,
    nextAttemptAt: createdAt,
    leaseOwner: null,
    leaseUntil: null,
    createdAt,
    ...fields,
  });
  await repo.insert(row);
  return row;
}

/**
 * A settled delivery of a submission (the worker leaves it alone: `succeeded` or `dead`)
 * with one attempt; answers its id.
 */
export async function insertSettledDelivery(
  t: TestApp,
  {
    formId,
    submissionId,
    status,
  }: { formId: string; submissionId: string; status: 'succeeded' | 'dead' },
): Promise<string> {
  const delivery = await insertDelivery(t, {
    formId,
    target: 'hook',
    submissionId,
    event: 'submission.created',
    status,
    nextAttemptAt: null,
  });
  await t.dataSource.getRepository(DeliveryAttempt).insert({
    id: ulid(),
    deliveryId: delivery.id,
    at: new Date(),
    statusCode: status === 'succeeded' ? 200 : 500,
    error: null,
    durationMs: 5,
  });
  return delivery.id;
}
