-- # writes a batch's submissions and what goes with them

-- CommitSql.insertSubmissions
INSERT INTO "submission" ("id", "formId", "data", "ip", "userAgent", "origin", "createdAt", "spam", "spamReasons")
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);

-- CommitSql.countHoneypot
UPDATE "form"
SET "honeypotHits" = "honeypotHits" + ?
WHERE "id" = ?;

-- CommitSql.insertIdempotency
INSERT INTO "idempotency_record" ("id", "fingerprint", "status", "response", "createdAt", "expiresAt")
VALUES (?, ?, ?, ?, ?, ?);

-- CommitSql.deleteIdempotency
DELETE FROM "idempotency_record"
WHERE "id" = ?;
