/** Form-encoded dashboard bodies arrive as null-prototype objects; read one text input. */
export type FormBody = Record<string, unknown>;

export function textOf(body: unknown, key: string): string {
  if (body === null || typeof body !== 'object' || !Object.hasOwn(body, key)) {
    return '';
  }
  const value = (body as FormBody)[key];
  return typeof value === 'string' ? value : '';
}

export function isChecked(body: unknown, key: string): boolean {
  return (
    body !== null &&
    typeof body === 'object' &&
    Object.hasOwn(body, key) &&
    textOf(body, key) !== ''
  );
}
