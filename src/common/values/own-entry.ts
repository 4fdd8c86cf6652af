/**
 * `table[key]` when `key` names one of the table's own entries, else undefined. A plain
 * lookup by a name that came from a request (`?done=constructor`, a submission key
 * `toString`) would find Object.prototype's built-ins instead.
 */
export function ownEntry<T>(
  table: Readonly<Record<string, T>>,
  key: unknown,
): T | undefined {
  return typeof key === 'string' && Object.hasOwn(table, key)
    ? table[key]
    : undefined;
}
