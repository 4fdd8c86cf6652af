-- # adds a form's counts of a day, and sums them since a day

-- FormSpamStatSql.add
INSERT INTO `form_spam_stat` (`formId`, `day`, `honeypot`, `captcha`)
VALUES (?, ?, ?, ?)
ON DUPLICATE KEY UPDATE `honeypot` = `honeypot` +
VALUES(`honeypot`), `captcha` = `captcha` +
VALUES(`captcha`);
-- params: ["form-1","2026-03-01",2,1]

-- FormSpamStatSql.since
SELECT SUM(`honeypot`) AS `honeypot`, SUM(`captcha`) AS `captcha`
FROM `form_spam_stat`
WHERE `formId` = ?
AND `day` >= ?;
-- params: ["form-1","2026-02-01"]
