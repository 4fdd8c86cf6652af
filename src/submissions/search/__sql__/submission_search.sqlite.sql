-- # reads and saves the indexer position, and the next rows by id

-- SearchIndexSql.state
SELECT "lastId"
FROM "search_index_state"
WHERE "name" = ?;
-- params: ["submissions"]

-- SearchIndexSql.saveState
INSERT INTO "search_index_state" ("name", "lastId")
VALUES (?, ?)
ON CONFLICT ("name") DO
UPDATE
SET "lastId" = excluded."lastId";
-- params: ["submissions","01J"]

-- SearchIndexSql.pending
SELECT "id", "data"
FROM "submission"
WHERE "id" > ?
AND "createdAt" < ?
ORDER BY "id"
LIMIT 200;
-- params: ["01J","2026-12-01 10:00:00.000"]

-- # finds candidates of a form and empties the index

-- SearchIndexSql.candidates
SELECT "s"."id"
FROM "submission_fts"
JOIN "submission_search" "k" ON "k"."seq" = "submission_fts"."rowid"
JOIN "submission" "s" ON "s"."id" = "k"."submissionId"
WHERE "submission_fts" MATCH ?
AND "s"."formId" = ?
LIMIT 5001;
-- params: ["q","f"]

-- SearchIndexSql.clear
-- value: ["INSERT INTO \"submission_fts\" (\"submission_fts\") VALUES ('delete-all')","DELETE FROM \"submission_search\"","DELETE FROM \"search_index_state\""]

-- SearchIndexSql.candidatePage
SELECT "k"."seq" AS "seq", "s"."id" AS "id"
FROM "submission_fts"
JOIN "submission_search" "k" ON "k"."seq" = "submission_fts"."rowid"
JOIN "submission" "s" ON "s"."id" = "k"."submissionId"
WHERE "submission_fts" MATCH ?
AND "submission_fts"."rowid" > ?
AND "s"."formId" = ?
ORDER BY "submission_fts"."rowid"
LIMIT 1000;
-- params: ["q",42,"f"]

-- SearchIndexSql.sqliteKey
INSERT INTO "submission_search" ("submissionId")
VALUES (?)
ON CONFLICT DO NOTHING;

-- SearchIndexSql.sqliteExists
SELECT 1
FROM "submission"
WHERE "id" = ?;

-- SearchIndexSql.sqliteText
INSERT INTO "submission_fts" ("rowid", "body")
VALUES (?, ?);
