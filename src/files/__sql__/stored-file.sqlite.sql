-- # inserts rows

-- StoredFileSql.insert
INSERT INTO "stored_file" ("id", "submissionId", "formId", "accountId", "fieldId", "name", "size", "type", "sha256", "createdAt")
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- StoredFileSql.insert
INSERT INTO "stored_file" ("id", "submissionId", "formId", "accountId", "fieldId", "name", "size", "type", "sha256", "createdAt")
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- # reads one file only through its form and submission

-- StoredFileSql.findOne
SELECT "id", "submissionId", "formId", "accountId", "fieldId", "name", "size", "type", "sha256", "createdAt"
FROM "stored_file"
WHERE "id" = ?
AND "submissionId" = ?
AND "formId" = ?;
-- params: ["file1","01JSUBMISSION0000000000000","form0000000000000000000000"]

-- # reads and deletes the files of submissions, by the submission index

-- StoredFileSql.ofSubmissions
SELECT "id", "submissionId", "formId", "accountId", "fieldId", "name", "size", "type", "sha256", "createdAt"
FROM "stored_file"
WHERE "submissionId" IN (?, ?)
AND "formId" = ?
ORDER BY "submissionId", "createdAt", "id";
-- params: ["01JSUBMISSION0000000000000","01JSUBMISSION0000000000001","form0000000000000000000000"]

-- StoredFileSql.deleteOfSubmissions
DELETE FROM "stored_file"
WHERE "submissionId" IN (?, ?)
AND "formId" = ?;
-- params: ["01JSUBMISSION0000000000000","01JSUBMISSION0000000000001","form0000000000000000000000"]

-- # reads a file by its id, and the file ids of submissions by the submission index

-- StoredFileSql.findById
SELECT "id", "submissionId", "formId", "accountId", "fieldId", "name", "size", "type", "sha256", "createdAt"
FROM "stored_file"
WHERE "id" = ?;
-- params: ["file1"]

-- StoredFileSql.idsOfSubmissions
SELECT "id", "submissionId"
FROM "stored_file"
WHERE "submissionId" IN (?, ?);
-- params: ["01JSUBMISSION0000000000000","01JSUBMISSION0000000000001"]

-- # finds which objects have rows, by primary key, and sums an account

-- StoredFileSql.existing
SELECT "id"
FROM "stored_file"
WHERE "id" IN (?, ?);
-- params: ["a","b"]

-- StoredFileSql.accountBytes
SELECT COALESCE(SUM("size"), 0) AS "bytes"
FROM "stored_file"
WHERE "accountId" = ?;
-- params: ["account1"]
