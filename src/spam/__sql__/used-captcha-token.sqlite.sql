-- # claims a batch of answers, and which it won

-- UsedCaptchaTokenSql.claimOne
INSERT
OR IGNORE INTO "used_captcha_token" ("id", "expiresAt", "claim")
VALUES (?, ?, ?);
-- params: ["a1","2026-03-01 12:00:00.000","batch-1"]
