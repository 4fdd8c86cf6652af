-- # adds deltas to forms and days with one upsert each

-- FormCounterSql.adjust
INSERT INTO "form_counter" ("formId", "total", "spam", "newCount", "openCount", "closedCount", "lastAt")
VALUES (?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?)
ON CONFLICT ("formId") DO
UPDATE
SET "total" = "total" + excluded."total", "spam" = "spam" + excluded."spam", "newCount" = "newCount" + excluded."newCount", "openCount" = "openCount" + excluded."openCount", "closedCount" = "closedCount" + excluded."closedCount", "lastAt" = CASE WHEN excluded."lastAt" IS NULL
OR "lastAt" >= excluded."lastAt" THEN "lastAt" ELSE excluded."lastAt" END;

-- FormCounterSql.adjustDays
INSERT INTO "form_daily_count" ("formId", "day", "count")
VALUES (?, ?, ?)
ON CONFLICT ("formId", "day") DO
UPDATE
SET "count" = "count" + excluded."count";

-- FormCounterSql.adjustWith
INSERT INTO "form_counter" ("formId", "total", "spam", "newCount", "openCount", "closedCount", "lastAt")
VALUES ?
ON CONFLICT ("formId") DO
UPDATE
SET "total" = "total" + excluded."total", "spam" = "spam" + excluded."spam", "newCount" = "newCount" + excluded."newCount", "openCount" = "openCount" + excluded."openCount", "closedCount" = "closedCount" + excluded."closedCount", "lastAt" = CASE WHEN excluded."lastAt" IS NULL
OR "lastAt" >= excluded."lastAt" THEN "lastAt" ELSE excluded."lastAt" END;

-- # reads counters, days and a full recount

-- FormCounterSql.countersOf
SELECT "formId", "total", "spam", "newCount", "openCount", "closedCount", "lastAt"
FROM "form_counter"
WHERE "formId" IN (?, ?);
-- params: ["f1","f2"]

-- FormCounterSql.daysOf
SELECT "day", "count"
FROM "form_daily_count"
WHERE "formId" = ?
AND "day" >= ?
ORDER BY "day";
-- params: ["f1","2026-11-03"]

-- FormCounterSql.fullCount
SELECT "spam", "status", COUNT(*) AS "count", MAX("createdAt") AS "lastAt"
FROM "submission"
WHERE "formId" = ?
GROUP BY "spam", "status";
-- params: ["f1"]

-- FormCounterSql.fullDays
SELECT substr("createdAt", 1, 10) AS "day", COUNT(*) AS "count"
FROM "submission"
WHERE "formId" = ?
AND "spam" = 0
GROUP BY substr("createdAt", 1, 10);
-- params: ["f1"]

-- FormCounterSql.replaceCounter
INSERT
OR REPLACE INTO "form_counter" ("formId", "total", "spam", "newCount", "openCount", "closedCount", "lastAt")
VALUES (?, ?, ?, ?, ?, ?, ?);
