// The opaque paging cursor of the submissions list: the (createdAt, id) of the last row
// of a page, base64url-encoded as "<epoch milliseconds>:<id>". Clients pass it back
// unchanged; the next page holds the rows strictly older than that position.

export interface SubmissionPosition {
  createdAt: Date;
  id: string;
}

export const INVALID_CURSOR =
  'Invalid cursor: pass the nextCursor of the previous page unchanged';

const DECODED = /^(\d{1,15}):([A-Za-z0-9_-]{1,32})$/;
/** The last instant a MySQL/MariaDB DATETIME can hold. */
const MAX_EPOCH_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

export function encodeCursor(position: SubmissionPosition): string {
  return Buffer.from(
    `${position.createdAt.getTime()}:${position.id}`,
    'utf8',
  ).toString('base64url');
}

/** The position a cursor names, or undefined when it is not one this service issued. */
export function decodeCursor(cursor: string): SubmissionPosition | undefined {
  if (cursor.length === 0 || cursor.length > 80) return undefined;
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  const decoded = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = DECODED.exec(decoded);
  if (!match) return undefined;
  const ms = Number(match[1]);
  if (!Number.isSafeInteger(ms) || ms > MAX_EPOCH_MS) return undefined;
  const position = { createdAt: new Date(ms), id: match[2] };
  // Only the canonical spelling is accepted, so a cursor has exactly one meaning.
  return encodeCursor(position) === cursor ? position : undefined;
}
