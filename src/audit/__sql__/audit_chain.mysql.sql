-- # creates, locks, advances and re-anchors a chain with one statement each

-- AuditChainSql.ensureChain
INSERT IGNORE INTO `audit_chain` (`accountId`, `headSeq`, `headHash`, `anchorSeq`, `anchorHash`)
VALUES (?, 0, ?, 0, ?);
-- params: ["01ACCOUNT","0000000000000000000000000000000000000000000000000000000000000000","0000000000000000000000000000000000000000000000000000000000000000"]

-- AuditChainSql.lockHead
SELECT `headSeq`, `headHash`
FROM `audit_chain`
WHERE `accountId` = ?
FOR UPDATE;
-- params: ["01ACCOUNT"]

-- AuditChainSql.advanceHead
UPDATE `audit_chain`
SET `headSeq` = ?, `headHash` = ?
WHERE `accountId` = ?;
-- params: [7,"abababababababababababababababababababababababababababababababab","01ACCOUNT"]

-- AuditChainSql.moveAnchor
UPDATE `audit_chain`
SET `anchorSeq` = ?, `anchorHash` = ?
WHERE `accountId` = ?
AND `anchorSeq` < ?;
-- params: [3,"cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd","01ACCOUNT",3]
