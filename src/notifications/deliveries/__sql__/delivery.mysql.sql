-- # adds a batch event, and reads, locks and deletes events

-- DeliverySql.insertEvent
INSERT INTO `outbox_event` (`id`, `submissions`, `createdAt`)
VALUES (?, ?, ?);

-- DeliverySql.nextEvents
SELECT `id`, `submissions`
FROM `outbox_event`
ORDER BY `id`
LIMIT 2;
-- params: []

-- DeliverySql.lockEvents
SELECT `id`
FROM `outbox_event`
WHERE `id` IN (?, ?)
FOR UPDATE SKIP LOCKED;
-- params: ["e1","e2"]

-- DeliverySql.deleteEvents
DELETE FROM `outbox_event`
WHERE `id` IN (?, ?);
-- params: ["e1","e2"]

-- # counts the backlog by channel in the database, bounded

-- DeliverySql.backlogCounts
SELECT `channel`, COUNT(*) AS `waiting`
FROM (
  SELECT `channel`
  FROM `delivery`
  WHERE `status` IN ('pending', 'failed')
  LIMIT 10000) `due`
GROUP BY `channel`;
-- params: []

-- DeliverySql.eventsWaiting
SELECT COUNT(*) AS `waiting`
FROM (
  SELECT `id`
  FROM `outbox_event`
  LIMIT 10000) `waiting_events`;
-- params: []

-- # writes deliveries, leaving alone one that exists for the submission and target

-- DeliverySql.insertDeliveries
INSERT INTO `delivery` (`id`, `formId`, `accountId`, `submissionId`, `channel`, `target`, `event`, `payload`, `status`, `attempts`, `scheduleStart`, `nextAttemptAt`, `createdAt`)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON DUPLICATE KEY UPDATE `id` = `id`;
-- params: ["01JDELIVERY000000000000000","form-1","account-1","01JSUBMISSION0000000000000","email","owner@example.com","submission.created","{\"_subject\":\"Hello\"}","pending",0,0,"2026-03-01 11:59:59.000","2026-03-01 11:59:59.000","01JDELIVERY000000000000001","form-1","account-1",null,"email","owner@example.com","submission.created","{\"_subject\":\"Hello\"}","pending",0,0,"2026-03-01 11:59:59.000","2026-03-01 11:59:59.000"]

-- # finds the accounts and targets with due deliveries

-- DeliverySql.dueGroups
SELECT `accountId`, `target`
FROM `delivery` FORCE INDEX (`IDX_delivery_claim`)
WHERE `status` IN ('pending', 'failed')
GROUP BY `status`, `accountId`, `target`
HAVING MIN(`nextAttemptAt`) <= ?;
-- params: ["2026-03-01 12:00:00.123"]

-- # reads each group's longest due, locks and leases them

-- DeliverySql.candidates
(
  SELECT `id`, `accountId`, `target`, `nextAttemptAt`
  FROM `delivery`
  WHERE `status` = ?
  AND `accountId` = ?
  AND `target` = ?
  AND `nextAttemptAt` <= ?
  ORDER BY `nextAttemptAt`
  LIMIT 2)
UNION ALL (
  SELECT `id`, `accountId`, `target`, `nextAttemptAt`
  FROM `delivery`
  WHERE `status` = ?
  AND `accountId` = ?
  AND `target` = ?
  AND `nextAttemptAt` <= ?
  ORDER BY `nextAttemptAt`
  LIMIT 2)
UNION ALL (
  SELECT `id`, `accountId`, `target`, `nextAttemptAt`
  FROM `delivery`
  WHERE `status` = ?
  AND `accountId` = ?
  AND `target` = ?
  AND `nextAttemptAt` <= ?
  ORDER BY `nextAttemptAt`
  LIMIT 1)
UNION ALL (
  SELECT `id`, `accountId`, `target`, `nextAttemptAt`
  FROM `delivery`
  WHERE `status` = ?
  AND `accountId` = ?
  AND `target` = ?
  AND `nextAttemptAt` <= ?
  ORDER BY `nextAttemptAt`
  LIMIT 1);
-- params: ["pending","account-1","hook-1","2026-03-01 12:00:00.123","failed","account-1","hook-1","2026-03-01 12:00:00.123","pending","account-2","a@example.com","2026-03-01 12:00:00.123","failed","account-2","a@example.com","2026-03-01 12:00:00.123"]

-- DeliverySql.lockCandidates
SELECT `id`, `formId`, `accountId`, `submissionId`, `channel`, `target`, `event`, `payload`, `status`, `attempts`, `scheduleStart`, `nextAttemptAt`, `leaseOwner`, `leaseUntil`, `lastStatusCode`, `lastError`, `lastDurationMs`, `createdAt`, `deliveredAt`
FROM `delivery`
WHERE `id` IN (?, ?)
AND `status` IN ('pending', 'failed')
AND `nextAttemptAt` <= ?
FOR UPDATE SKIP LOCKED;
-- params: ["d1","d2","2026-03-01 12:00:00.123"]

-- DeliverySql.lease
UPDATE `delivery`
SET `leaseOwner` = ?, `leaseUntil` = ?, `nextAttemptAt` = ?
WHERE `id` IN (?, ?);
-- params: ["worker-1","2026-03-01 12:00:10.123","2026-03-01 12:00:10.123","d1","d2"]

-- DeliverySql.renew
UPDATE `delivery`
SET `leaseUntil` = ?, `nextAttemptAt` = ?
WHERE `leaseOwner` = ?
AND `status` IN ('pending', 'failed')
AND `id` IN (?);
-- params: ["2026-03-01 12:00:10.123","2026-03-01 12:00:10.123","worker-1","d1"]

-- DeliverySql.release
UPDATE `delivery`
SET `leaseOwner` = NULL, `leaseUntil` = NULL, `nextAttemptAt` = ?
WHERE `leaseOwner` = ?
AND `status` IN ('pending', 'failed')
AND `id` IN (?);
-- params: ["2026-03-01 12:00:00.123","worker-1","d1"]

-- # records attempts and their outcome

-- DeliverySql.insertAttempts
INSERT INTO `delivery_attempt` (`id`, `deliveryId`, `at`, `statusCode`, `error`, `durationMs`)
VALUES (?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?);
-- params: ["a1","d1","2026-03-01 12:00:00.123",200,null,12,"a2","d2","2026-03-01 12:00:00.123",null,"connect ECONNREFUSED",3]

-- DeliverySql.recordAttempt
UPDATE `delivery`
SET `status` = ?, `attempts` = `attempts` + 1, `nextAttemptAt` = ?, `leaseOwner` = NULL, `leaseUntil` = NULL, `lastStatusCode` = ?, `lastError` = ?, `lastDurationMs` = ?, `deliveredAt` = ?
WHERE `id` = ?
AND `leaseOwner` = ?;
-- params: ["failed","2026-03-01 12:00:10.123",null,"connect ECONNREFUSED",3,null,"d2","worker-1"]

-- DeliverySql.recordAttempts
UPDATE `delivery`
SET `status` = CASE `id` WHEN ? THEN ? WHEN ? THEN ? END, `attempts` = `attempts` + 1, `nextAttemptAt` = CASE `id` WHEN ? THEN ? WHEN ? THEN ? END, `leaseOwner` = NULL, `leaseUntil` = NULL, `lastStatusCode` = CASE `id` WHEN ? THEN ? WHEN ? THEN ? END, `lastError` = CASE `id` WHEN ? THEN ? WHEN ? THEN ? END, `lastDurationMs` = CASE `id` WHEN ? THEN ? WHEN ? THEN ? END, `deliveredAt` = CASE `id` WHEN ? THEN ? WHEN ? THEN ? END
WHERE `id` IN (?, ?)
AND `leaseOwner` = ?;
-- params: ["d1","succeeded","d2","failed","d1",null,"d2","2026-03-01 12:00:10.123","d1",200,"d2",null,"d1",null,"d2","connect ECONNREFUSED","d1",12,"d2",3,"d1","2026-03-01 12:00:00.123","d2",null,"d1","d2","worker-1"]

-- # retries a delivery unless it changed or is being sent

-- DeliverySql.retry
UPDATE `delivery`
SET `status` = 'pending', `nextAttemptAt` = ?, `scheduleStart` = `attempts`, `leaseOwner` = NULL, `leaseUntil` = NULL
WHERE `id` = ?
AND `status` = ?
AND (`leaseUntil` IS NULL
  OR `leaseUntil` < ?);
-- params: ["2026-03-01 12:00:00.123","d1","dead","2026-03-01 12:00:00.123"]

-- # walks old deliveries and a webhook's, and deletes them with their attempts

-- DeliverySql.oldPage
SELECT `id`, `createdAt`, `leaseUntil`
FROM `delivery`
WHERE `id` > ?
AND `id` < ?
ORDER BY `id`
LIMIT 500;
-- params: ["","01JCUTOFF00000000000000000"]

-- DeliverySql.webhookPage
SELECT `id`
FROM `delivery`
WHERE `target` = ?
AND `channel` = 'webhook'
ORDER BY `id`
LIMIT 500;
-- params: ["hook-1"]

-- DeliverySql.deleteAttemptsOf
DELETE FROM `delivery_attempt`
WHERE `deliveryId` IN (?, ?);
-- params: ["d1","d2"]

-- DeliverySql.deleteDeliveries
DELETE FROM `delivery`
WHERE `id` IN (?, ?);
-- params: ["d1","d2"]

-- # deletes the deliveries of submissions being deleted

-- DeliverySql.deleteOfSubmissions
DELETE FROM `delivery`
WHERE `submissionId` IN (?, ?)
AND `formId` = ?;
-- params: ["s1","s2","form-1"]
