// Which submissions hold an email address, for erasure and the data-subject export: a
// value that is the address, or contains it as a whole token — case-insensitively, in
// any field. "Write to ADA@Example.com, please" holds ada@example.com; "ada@example.com.au",
// "grandada@example.com" and "ada@example.community" do not (they are other addresses).

/** Characters that may continue an address on its left (its local part). */
const LOCAL_PART = /[\p{L}\p{N}!#$%&'*+/=?^_`{|}~.@-]/u;
/** Characters that may continue an address on its right (its domain). */
const DOMAIN_PART = /[\p{L}\p{N}_@-]/u;

/** The form an address is compared in: trimmed and lower-cased. */
export function normalizeAddress(address: string): string {
  return address.trim().toLowerCase();
}

/** true when `text` holds `address` (normalized) as a whole token. */
export function textHoldsAddress(text: string, address: string): boolean {
  if (address === '') return false;
  const lower = text.toLowerCase();
  for (
    let at = lower.indexOf(address);
    at !== -1;
    at = lower.indexOf(address, at + 1)
  ) {
    const before = at > 0 ? lower[at - 1] : '';
    const end = at + address.length;
    const after = lower[end] ?? '';
    if (before && LOCAL_PART.test(before)) continue;
    if (after && DOMAIN_PART.test(after)) continue;
    // A dot ends a sentence, unless a label follows it (a longer domain).
    if (after === '.' && /[\p{L}\p{N}]/u.test(lower[end + 1] ?? '')) continue;
    return true;
  }
  return false;
}

/**
 * true when one of the values of a submission's data (strings, and strings inside
 * lists or objects such as a file's metadata) holds the address.
 */
export function dataHoldsAddress(data: unknown, address: string): boolean {
  const pending: unknown[] = [data];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      if (textHoldsAddress(value, address)) return true;
    } else if (value !== null && typeof value === 'object') {
      pending.push(...Object.values(value));
    }
  }
  return false;
}
