-- # locks, sets a status and an assignee on listed rows of a form

-- InboxSql.lockRows
SELECT "id", "formId", "spam", "status", "assigneeId", "createdAt"
FROM "submission"
WHERE "formId" = ?
AND "id" IN (?, ?);
-- params: ["f","a","b"]

-- InboxSql.setStatus
UPDATE "submission"
SET "status" = ?
WHERE "formId" = ?
AND "id" IN (?, ?)
AND "status" <> ?;
-- params: ["closed","f","a","b","closed"]

-- InboxSql.setAssignee
UPDATE "submission"
SET "assigneeId" = ?
WHERE "formId" = ?
AND "id" IN (?);
-- params: [null,"f","a"]

-- # adds and removes labels

-- InboxSql.addLabels
INSERT
OR IGNORE INTO "submission_label" ("submissionId", "labelId")
VALUES (?, ?), (?, ?);
-- params: ["a","l1","b","l1"]

-- InboxSql.removeLabels
DELETE FROM "submission_label"
WHERE "submissionId" IN (?)
AND "labelId" IN (?);
-- params: ["a","l1"]

-- InboxSql.removeLabels
DELETE FROM "submission_label"
WHERE "submissionId" IN (?)
AND "labelId" NOT IN (?);
-- params: ["a","l2"]

-- # reads what a page shows

-- InboxSql.labelsOf
SELECT "sl"."submissionId" AS "submissionId", "l"."name" AS "name"
FROM "submission_label" "sl"
JOIN "label" "l" ON "l"."id" = "sl"."labelId"
WHERE "sl"."submissionId" IN (?)
ORDER BY "l"."name";
-- params: ["a"]

-- InboxSql.noteCounts
SELECT "submissionId", COUNT(*) AS "count"
FROM "submission_note"
WHERE "submissionId" IN (?, ?)
GROUP BY "submissionId";
-- params: ["a","b"]

-- InboxSql.usersOf
SELECT "id", "email"
FROM "user"
WHERE "id" IN (?);
-- params: ["u"]

-- InboxSql.membership
SELECT "userId"
FROM "membership"
WHERE "accountId" = ?
AND "userId" = ?;
-- params: ["acc","u"]
