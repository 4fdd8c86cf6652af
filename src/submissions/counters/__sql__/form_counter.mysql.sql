-- # adds deltas to forms and days with one upsert each

-- FormCounterSql.adjust
INSERT INTO `form_counter` (`formId`, `total`, `spam`, `newCount`, `openCount`, `closedCount`, `lastAt`)
VALUES (?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?)
ON DUPLICATE KEY UPDATE `total` = `total` +
VALUES(`total`), `spam` = `spam` +
VALUES(`spam`), `newCount` = `newCount` +
VALUES(`newCount`), `openCount` = `openCount` +
VALUES(`openCount`), `closedCount` = `closedCount` +
VALUES(`closedCount`), `lastAt` = CASE WHEN
VALUES(`lastAt`) IS NULL
OR `lastAt` >=
VALUES(`lastAt`) THEN `lastAt` ELSE
VALUES(`lastAt`) END;

-- FormCounterSql.adjustDays
INSERT INTO `form_daily_count` (`formId`, `day`, `count`)
VALUES (?, ?, ?)
ON DUPLICATE KEY UPDATE `count` = `count` +
VALUES(`count`);

-- FormCounterSql.adjustWith
INSERT INTO `form_counter` (`formId`, `total`, `spam`, `newCount`, `openCount`, `closedCount`, `lastAt`)
VALUES ?
ON DUPLICATE KEY UPDATE `total` = `total` +
VALUES(`total`), `spam` = `spam` +
VALUES(`spam`), `newCount` = `newCount` +
VALUES(`newCount`), `openCount` = `openCount` +
VALUES(`openCount`), `closedCount` = `closedCount` +
VALUES(`closedCount`), `lastAt` = CASE WHEN
VALUES(`lastAt`) IS NULL
OR `lastAt` >=
VALUES(`lastAt`) THEN `lastAt` ELSE
VALUES(`lastAt`) END;

-- # reads counters, days and a full recount

-- FormCounterSql.countersOf
SELECT `formId`, `total`, `spam`, `newCount`, `openCount`, `closedCount`, `lastAt`
FROM `form_counter`
WHERE `formId` IN (?, ?);
-- params: ["f1","f2"]

-- FormCounterSql.daysOf
SELECT `day`, `count`
FROM `form_daily_count`
WHERE `formId` = ?
AND `day` >= ?
ORDER BY `day`;
-- params: ["f1","2026-11-03"]

-- FormCounterSql.fullCount
SELECT `spam`, `status`, COUNT(*) AS `count`, MAX(`createdAt`) AS `lastAt`
FROM `submission`
WHERE `formId` = ?
GROUP BY `spam`, `status`;
-- params: ["f1"]

-- FormCounterSql.fullDays
SELECT DATE_FORMAT(`createdAt`, '%Y-%m-%d') AS `day`, COUNT(*) AS `count`
FROM `submission`
WHERE `formId` = ?
AND `spam` = 0
GROUP BY DATE_FORMAT(`createdAt`, '%Y-%m-%d');
-- params: ["f1"]

-- FormCounterSql.replaceCounter
REPLACE INTO `form_counter` (`formId`, `total`, `spam`, `newCount`, `openCount`, `closedCount`, `lastAt`)
VALUES (?, ?, ?, ?, ?, ?, ?);
