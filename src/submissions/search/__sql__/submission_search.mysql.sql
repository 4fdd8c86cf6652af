-- # reads and saves the indexer position, and the next rows by id

-- SearchIndexSql.state
SELECT `lastId`
FROM `search_index_state`
WHERE `name` = ?;
-- params: ["submissions"]

-- SearchIndexSql.saveState
INSERT INTO `search_index_state` (`name`, `lastId`)
VALUES (?, ?)
ON DUPLICATE KEY UPDATE `lastId` =
VALUES(`lastId`);
-- params: ["submissions","01J"]

-- SearchIndexSql.pending
SELECT `id`, `data`
FROM `submission`
WHERE `id` > ?
AND `createdAt` < ?
ORDER BY `id`
LIMIT 200;
-- params: ["01J","2026-12-01 10:00:00.000"]

-- # finds candidates of a form and empties the index

-- SearchIndexSql.candidates
SELECT `s`.`id`
FROM `submission_search` `t`
JOIN `submission` `s` ON `s`.`id` = `t`.`submissionId`
WHERE MATCH(`t`.`body`) AGAINST (? IN BOOLEAN MODE)
AND `s`.`formId` = ?
LIMIT 5001;
-- params: ["q","f"]

-- SearchIndexSql.clear
-- value: ["DELETE FROM `submission_search`","DELETE FROM `search_index_state`"]

-- SearchIndexSql.mysqlText
INSERT IGNORE INTO `submission_search` (`submissionId`, `body`)
VALUES (?, ?), (?, ?);
