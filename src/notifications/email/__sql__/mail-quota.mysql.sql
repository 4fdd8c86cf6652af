-- # creates a row, reserves, releases and resets with one statement each

-- MailQuotaSql.ensure
INSERT IGNORE INTO `mail_quota` (`subject`, `day`, `usedOnDay`, `unanswered`)
VALUES (?, '', 0, 0);
-- params: ["address:ada@example.com"]

-- MailQuotaSql.reserve
UPDATE `mail_quota`
SET `usedOnDay` = CASE WHEN `day` = ? THEN `usedOnDay` + 1 ELSE 1 END, `unanswered` = CASE WHEN `lastSentAt` IS NULL
OR `lastSentAt` <= ? THEN 1 ELSE `unanswered` + 1 END, `day` = ?, `lastSentAt` = ?
WHERE `subject` = ?
AND (`day` <> ?
  OR `usedOnDay` < ?)
AND (`unanswered` < ?
  OR `lastSentAt` IS NULL
  OR `lastSentAt` <= ?);
-- params: ["2026-03-01","2026-01-30 12:00:00.123","2026-03-01","2026-03-01 12:00:00.123","address:ada@example.com","2026-03-01",3,3,"2026-01-30 12:00:00.123"]

-- MailQuotaSql.release
UPDATE `mail_quota`
SET `usedOnDay` = `usedOnDay` - 1, `unanswered` = CASE WHEN `unanswered` > 0 THEN `unanswered` - 1 ELSE 0 END
WHERE `subject` = ?
AND `day` = ?
AND `usedOnDay` > 0;
-- params: ["address:ada@example.com","2026-03-01"]

-- MailQuotaSql.answered
UPDATE `mail_quota`
SET `unanswered` = 0
WHERE `subject` = ?;
-- params: ["address:ada@example.com"]

-- # finds and deletes rows that cap nothing any more, in batches

-- MailQuotaSql.outlived
SELECT `subject`
FROM `mail_quota`
WHERE `lastSentAt` <= ?
LIMIT 500;
-- params: ["2026-03-01 12:00:00.123"]

-- MailQuotaSql.deleteOutlived
DELETE FROM `mail_quota`
WHERE `subject` IN (?, ?)
AND `lastSentAt` <= ?;
-- params: ["account:a","address:b@example.com","2026-03-01 12:00:00.123"]
