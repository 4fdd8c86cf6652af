-- # changes a role and removes a member in one conditional statement each

-- MembershipSql.changeRole
UPDATE "membership"
SET "role" = ?, "updatedAt" = ?
WHERE "accountId" = ?
AND "userId" = ?
AND (? = 'owner'
  OR ("role" <> 'owner'
    OR (
      SELECT COUNT(*)
      FROM (
        SELECT "userId"
        FROM "membership"
        WHERE "accountId" = ?
        AND "role" = 'owner') "owners") > 1));
-- params: ["viewer","2026-12-01 12:00:00.123","acc","usr","viewer","acc"]

-- MembershipSql.remove
DELETE FROM "membership"
WHERE "accountId" = ?
AND "userId" = ?
AND ("role" <> 'owner'
  OR (
    SELECT COUNT(*)
    FROM (
      SELECT "userId"
      FROM "membership"
      WHERE "accountId" = ?
      AND "role" = 'owner') "owners") > 1);
-- params: ["acc","usr","acc"]
