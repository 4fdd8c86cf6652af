-- # creates a row, reserves and releases with one statement each

-- StorageReservationSql.ensure
INSERT
OR IGNORE INTO "storage_reservation" ("accountId", "reservedBytes")
VALUES (?, 0);
-- params: ["01ACCOUNT"]

-- StorageReservationSql.reserve
UPDATE "storage_reservation"
SET "reservedBytes" = "reservedBytes" + ?, "updatedAt" = ?
WHERE "accountId" = ?
AND "reservedBytes" + ? + (
  SELECT COALESCE(SUM("size"), 0)
  FROM "stored_file"
  WHERE "accountId" = ?) <= ?;
-- params: [1048576,"2026-12-01 12:00:00.123","01ACCOUNT",1048576,"01ACCOUNT",5242880]

-- StorageReservationSql.release
UPDATE "storage_reservation"
SET "reservedBytes" = MAX("reservedBytes" - ?, 0), "updatedAt" = ?
WHERE "accountId" = ?;
-- params: [4096,"2026-12-01 12:00:00.123","01ACCOUNT"]
