-- # claims a batch of answers, and which it won

-- UsedCaptchaTokenSql.claimAll
INSERT IGNORE INTO `used_captcha_token` (`id`, `expiresAt`, `claim`)
VALUES ?;
-- params: [[["a1","2026-03-01T12:00:00.000Z","batch-1"],["a2","2026-03-01T12:00:00.000Z","batch-1"]]]

-- UsedCaptchaTokenSql.won
SELECT `id`
FROM `used_captcha_token`
WHERE `claim` = ?
AND `id` IN (?);
-- params: ["batch-1",["a1","a2"]]
