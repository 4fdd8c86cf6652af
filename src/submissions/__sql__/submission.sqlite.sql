-- # reads a first page, newest first

-- SubmissionSql.rows
SELECT "id", "formId", "data", "ip", "userAgent", "origin", "createdAt", "spam", "spamReasons", "status", "assigneeId"
FROM "submission"
WHERE "formId" = ?
AND "spam" = ?
ORDER BY "createdAt" DESC, "id" DESC
LIMIT 26;
-- params: ["01JFORM0000000000000000000",0]

-- # reads a status tab along its index, with assignee and label filters

-- SubmissionSql.rows
SELECT "id", "formId", "data", "ip", "userAgent", "origin", "createdAt", "spam", "spamReasons", "status", "assigneeId"
FROM "submission"
WHERE "formId" = ?
AND "spam" = ?
AND "status" = ?
AND "assigneeId" = ?
AND EXISTS (
  SELECT 1
  FROM "submission_label" "sl"
  WHERE "sl"."submissionId" = "submission"."id"
  AND "sl"."labelId" = ?)
ORDER BY "createdAt" DESC, "id" DESC
LIMIT 26;
-- params: ["01JFORM0000000000000000000",0,"new","u1","l1"]

-- SubmissionSql.rows
SELECT "id", "formId", "data", "ip", "userAgent", "origin", "createdAt", "spam", "spamReasons", "status", "assigneeId"
FROM "submission"
WHERE "formId" = ?
AND "spam" = ?
AND "assigneeId" IS NULL
ORDER BY "createdAt" DESC, "id" DESC
LIMIT 26;
-- params: ["01JFORM0000000000000000000",0]

-- # reads search candidates by their ids, along the primary key

-- SubmissionSql.rows
SELECT "id", "formId", "data", "ip", "userAgent", "origin", "createdAt", "spam", "spamReasons", "status", "assigneeId"
FROM "submission"
WHERE +"formId" = ?
AND +"spam" = ?
AND "id" IN (?, ?)
AND formgate_values_contain("data", ?) = 1
ORDER BY "createdAt" DESC, "id" DESC
LIMIT 26;
-- params: ["01JFORM0000000000000000000",0,"a","b","zanzibar"]

-- SubmissionSql.countedRows
SELECT "formId", "spam", "status", "createdAt"
FROM "submission"
WHERE "formId" = ?
AND "id" IN (?);
-- params: ["01JFORM0000000000000000000","a"]

-- # reads the page after a cursor, within a date range

-- SubmissionSql.rows
SELECT "id", "formId", "data", "ip", "userAgent", "origin", "createdAt", "spam", "spamReasons", "status", "assigneeId"
FROM "submission"
WHERE "formId" = ?
AND "spam" = ?
AND "createdAt" >= ?
AND "createdAt" < ?
AND "createdAt" <= ?
AND ("createdAt" < ?
  OR ("createdAt" = ?
    AND "id" < ?))
ORDER BY "createdAt" DESC, "id" DESC
LIMIT 26;
-- params: ["01JFORM0000000000000000000",0,"2025-01-01 00:00:00.000","2025-06-01 00:00:00.000","2025-03-01 12:00:00.123","2025-03-01 12:00:00.123","2025-03-01 12:00:00.123","01JSUBMISSION0000000000000"]

-- # searches values inside a scan window

-- SubmissionSql.rows
SELECT "id", "formId", "data", "ip", "userAgent", "origin", "createdAt", "spam", "spamReasons", "status", "assigneeId"
FROM "submission"
WHERE "formId" = ?
AND "spam" = ?
AND "createdAt" <= ?
AND ("createdAt" < ?
  OR ("createdAt" = ?
    AND "id" < ?))
AND "createdAt" >= ?
AND ("createdAt" > ?
  OR ("createdAt" = ?
    AND "id" >= ?))
AND formgate_values_contain("data", ?) = 1
ORDER BY "createdAt" DESC, "id" DESC
LIMIT 500;
-- params: ["01JFORM0000000000000000000",0,"2025-03-01 12:00:00.123","2025-03-01 12:00:00.123","2025-03-01 12:00:00.123","01JSUBMISSION0000000000000","2025-02-01 08:30:00.000","2025-02-01 08:30:00.000","2025-02-01 08:30:00.000","01JSUBMISSION0000000000001","Ünïcode 100%_!"]

-- # finds the end of a search window on the index

-- SubmissionSql.rows
SELECT "createdAt", "id"
FROM "submission"
WHERE "formId" = ?
AND "spam" = ?
AND "createdAt" >= ?
AND ("createdAt" > ?
  OR ("createdAt" = ?
    AND "id" > ?))
ORDER BY "createdAt" ASC, "id" ASC
LIMIT 1
OFFSET 9999;
-- params: ["01JFORM0000000000000000000",0,"2025-03-01 12:00:00.123","2025-03-01 12:00:00.123","2025-03-01 12:00:00.123","01JSUBMISSION0000000000000"]

-- # reads ids oldest first for a bulk delete

-- SubmissionSql.rows
SELECT "id"
FROM "submission"
WHERE "formId" = ?
AND "spam" = ?
AND "createdAt" < ?
ORDER BY "createdAt" ASC, "id" ASC
LIMIT 1000;
-- params: ["01JFORM0000000000000000000",0,"2025-06-01 00:00:00.000"]

-- # reads every column of one submission

-- SubmissionSql.findOne
SELECT "id", "formId", "data", "ip", "userAgent", "origin", "createdAt", "spam", "spamReasons", "status", "assigneeId"
FROM "submission"
WHERE "formId" = ?
AND "id" = ?
LIMIT 1;
-- params: ["01JFORM0000000000000000000","01JSUBMISSION0000000000000"]

-- # reads listed submissions of any form, every column or some

-- SubmissionSql.findMany
SELECT "id", "formId", "data", "ip", "userAgent", "origin", "createdAt", "spam", "spamReasons", "status", "assigneeId"
FROM "submission"
WHERE "id" IN (?, ?);
-- params: ["01JSUBMISSION0000000000000","01JSUBMISSION0000000000001"]

-- SubmissionSql.findMany
SELECT "id", "formId", "createdAt"
FROM "submission"
WHERE "id" IN (?);
-- params: ["01JSUBMISSION0000000000000"]

-- # deletes listed submissions of a form

-- SubmissionSql.deleteIds
DELETE FROM "submission"
WHERE "formId" = ?
AND "id" IN (?, ?);
-- params: ["01JFORM0000000000000000000","01JSUBMISSION0000000000000","01JSUBMISSION0000000000001"]

-- # counts submissions per form

-- SubmissionSql.countByForms
SELECT "formId" AS "formId", COUNT(*) AS "count", MAX("createdAt") AS "lastAt"
FROM "submission"
WHERE "formId" IN (?, ?)
AND "spam" = ?
GROUP BY "formId";
-- params: ["01JFORM0000000000000000000","other",0]

-- # counts submissions per UTC day

-- SubmissionSql.dailyCounts
SELECT substr("createdAt", 1, 10) AS "day", COUNT(*) AS "count"
FROM "submission"
WHERE "formId" = ?
AND "spam" = 0
AND "createdAt" >= ?
GROUP BY "day";
-- params: ["01JFORM0000000000000000000","2025-01-01 00:00:00.000"]

-- # reads the spam folder

-- SubmissionSql.rows
SELECT "id"
FROM "submission"
WHERE "formId" = ?
AND "spam" = ?
AND "createdAt" < ?
ORDER BY "createdAt" ASC, "id" ASC
LIMIT 500;
-- params: ["01JFORM0000000000000000000",1,"2025-06-01 00:00:00.000"]

-- SubmissionSql.countByForms
SELECT "formId" AS "formId", COUNT(*) AS "count", MAX("createdAt") AS "lastAt"
FROM "submission"
WHERE "formId" IN (?)
AND "spam" = ?
GROUP BY "formId";
-- params: ["01JFORM0000000000000000000",1]

-- # reads a form's recent clean data from one IP, a bounded range

-- SubmissionSql.recentFromIp
SELECT "data"
FROM (
  SELECT "ip", "data"
  FROM "submission"
  WHERE "formId" = ?
  AND "spam" = 0
  AND "createdAt" >= ?
  ORDER BY "createdAt" DESC, "id" DESC
  LIMIT 2000) "recent"
WHERE "ip" = ?;
-- params: ["01JFORM0000000000000000000","2025-01-01 00:00:00.000","203.0.113.9"]

-- # moves a submission into or out of the spam folder only from the other one

-- SubmissionSql.moveToFolder
UPDATE "submission"
SET "spam" = ?, "spamReasons" = ?
WHERE "formId" = ?
AND "id" = ?
AND "spam" = ?;
-- params: [1,"[\"marked-by-owner\"]","01JFORM0000000000000000000","01JSUBMISSION0000000000000",0]

-- SubmissionSql.moveToFolder
UPDATE "submission"
SET "spam" = ?, "spamReasons" = ?
WHERE "formId" = ?
AND "id" = ?
AND "spam" = ?;
-- params: [0,null,"01JFORM0000000000000000000","01JSUBMISSION0000000000000",1]

-- # counts submissions in a range

-- SubmissionSql.countInRange
SELECT COUNT(*) AS "count"
FROM "submission"
WHERE "formId" = ?
AND "spam" = ?
AND "createdAt" >= ?
AND "createdAt" < ?;
-- params: ["01JFORM0000000000000000000",0,"2025-01-01 00:00:00.000","2025-06-01 00:00:00.000"]

-- SubmissionSql.countInRange
SELECT COUNT(*) AS "count"
FROM "submission"
WHERE "formId" = ?
AND "spam" = ?;
-- params: ["01JFORM0000000000000000000",0]

-- SubmissionSql.countInRange
SELECT COUNT(*) AS "count"
FROM "submission"
WHERE "formId" = ?
AND "spam" = ?
AND "status" = ?
AND "createdAt" >= ?
AND "createdAt" < ?;
-- params: ["01JFORM0000000000000000000",0,"new","2025-01-01 00:00:00.000","2025-06-01 00:00:00.000"]

-- # scans a window for an address (erasure), ASCII and not

-- SubmissionSql.addressWindow
SELECT "id", "createdAt", CASE WHEN instr(lower("data"), ?) > 0 THEN "data" END AS "data"
FROM "submission"
WHERE "formId" = ?
AND "spam" = ?
ORDER BY "createdAt" ASC, "id" ASC
LIMIT 500;
-- params: ["ada@example.com","01JFORM0000000000000000000",0]

-- SubmissionSql.addressWindow
SELECT "id", "createdAt", CASE WHEN formgate_values_contain("data", ?) = 1 THEN "data" END AS "data"
FROM "submission"
WHERE "formId" = ?
AND "spam" = ?
AND "createdAt" >= ?
AND ("createdAt" > ?
  OR ("createdAt" = ?
    AND "id" > ?))
ORDER BY "createdAt" ASC, "id" ASC
LIMIT 2000;
-- params: ["zoë@exämple.com","01JFORM0000000000000000000",1,"2025-03-01 12:00:00.123","2025-03-01 12:00:00.123","2025-03-01 12:00:00.123","01JSUBMISSION0000000000000"]

-- # reads every column of listed submissions

-- SubmissionSql.rowsByIds
SELECT "id", "formId", "data", "ip", "userAgent", "origin", "createdAt", "spam", "spamReasons", "status", "assigneeId"
FROM "submission"
WHERE "formId" = ?
AND "id" IN (?, ?)
ORDER BY "createdAt" ASC, "id" ASC;
-- params: ["01JFORM0000000000000000000","01JSUBMISSION0000000000000","01JSUBMISSION0000000000001"]
