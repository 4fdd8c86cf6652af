-- # looks a key up, claims, completes and releases it

-- IdempotencyRecordSql.select
SELECT `fingerprint`, `status`, `response`
FROM `idempotency_record`
WHERE `id` = ?
AND `expiresAt` > ?;

-- IdempotencyRecordSql.insert
INSERT INTO `idempotency_record` (`id`, `fingerprint`, `status`, `response`, `createdAt`, `expiresAt`)
VALUES (?, ?, ?, ?, ?, ?);

-- IdempotencyRecordSql.deleteExpired
DELETE FROM `idempotency_record`
WHERE `id` = ?
AND `expiresAt` <= ?;

-- IdempotencyRecordSql.complete
UPDATE `idempotency_record`
SET `status` = ?, `response` = ?, `expiresAt` = ?
WHERE `id` = ?;

-- IdempotencyRecordSql.release
DELETE FROM `idempotency_record`
WHERE `id` = ?
AND `status` IS NULL;
