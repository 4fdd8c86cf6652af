// When a key was last used, for owners deciding which keys are still needed. Written at
// most once a minute per key, whatever the traffic and however many instances: the row
// already read to authenticate says whether the mark is stale, and the write itself only
// applies while it still is, so concurrent requests (on any instance) write it once.
// The repository of each key's table (forms, account keys) hands its UPDATE here, and
// this file adds the condition both share.
import { Logger } from '@nestjs/common';
import { Brackets, type ObjectLiteral, type UpdateQueryBuilder } from 'typeorm';

const logger = new Logger('ApiKeyService');

/** The resolution of a key's last-used time. */
export const KEY_USE_RESOLUTION_MS = 60_000;

/** true when a key last marked used at `lastUsedAt` should be marked again at `now`. */
export function keyUseIsStale(lastUsedAt: Date | null, now: Date): boolean {
  return (
    lastUsedAt === null ||
    now.getTime() - lastUsedAt.getTime() >= KEY_USE_RESOLUTION_MS
  );
}

/**
 * Sets `column` of row `id` to `now` through `update` (the UPDATE of the key's table)
 * unless another request did so within the last minute. Answers whether this call wrote
 * it. A failure is logged, never passed on: a valid key is not refused because its use
 * could not be recorded.
 */
export async function recordKeyUse<T extends ObjectLiteral>(
  update: UpdateQueryBuilder<T>,
  id: string,
  column: keyof T & string,
  now: Date,
): Promise<boolean> {
  try {
    return await writeKeyUse(update, id, column, now);
  } catch (error) {
    logger.warn(`Could not record key use: ${(error as Error).message}`);
    return false;
  }
}

async function writeKeyUse<T extends ObjectLiteral>(
  update: UpdateQueryBuilder<T>,
  id: string,
  column: keyof T & string,
  now: Date,
): Promise<boolean> {
  const cutoff = new Date(now.getTime() - KEY_USE_RESOLUTION_MS);
  const result = await update
    .set({ [column]: now } as never)
    .where('id = :id', { id })
    .andWhere(
      new Brackets((stale) =>
        stale
          .where(`${column} IS NULL`)
          .orWhere(`${column} <= :cutoff`, { cutoff }),
      ),
    )
    .execute();
  return (result.affected ?? 0) > 0;
}
