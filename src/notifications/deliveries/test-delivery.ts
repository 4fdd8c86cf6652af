// The delivery a "send a test" asks for (a webhook's, a chat channel's): no submission, due
// now, written through DeliveryRepository and sent by the worker like any other.
import { newUlid } from '../../common/values/ulid.js';
import { Delivery } from './delivery.entity.js';

export function testDelivery(target: {
  formId: string;
  accountId: string;
  channel: 'webhook' | 'chat';
  target: string;
  event: string;
}): Delivery {
  const now = new Date();
  return Object.assign(new Delivery(), {
    id: newUlid(now.getTime()),
    ...target,
    submissionId: null,
    payload: null,
    status: 'pending',
    attempts: 0,
    scheduleStart: 0,
    nextAttemptAt: now,
    leaseOwner: null,
    leaseUntil: null,
    lastStatusCode: null,
    lastError: null,
    lastDurationMs: null,
    createdAt: now,
    deliveredAt: null,
  } satisfies Delivery);
}
