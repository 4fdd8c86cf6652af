INSERT OR IGNORE INTO "audit_chain" ("accountId", "headSeq", "headHash", "anchorSeq", "anchorHash") VALUES (?, 0, ?, 0, ?);
-- ["01ACCOUNT","0000000000000000000000000000000000000000000000000000000000000000","0000000000000000000000000000000000000000000000000000000000000000"]

SELECT "headSeq", "headHash" FROM "audit_chain" WHERE "accountId" = ?;
-- ["01ACCOUNT"]

UPDATE "audit_chain" SET "headSeq" = ?, "headHash" = ? WHERE "accountId" = ?;
-- [7,"abababababababababababababababababababababababababababababababab","01ACCOUNT"]

UPDATE "audit_chain" SET "anchorSeq" = ?, "anchorHash" = ? WHERE "accountId" = ? AND "anchorSeq" < ?;
-- [3,"cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd","01ACCOUNT",3]
