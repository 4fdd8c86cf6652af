// Reading settings from the environment, shared by every part of the configuration: a
// variable set to nothing counts as unset, and a whole number must lie in its range.
import { ConfigError } from './config-error.js';

export type Env = Record<string, string | undefined>;

/** The variable's value, trimmed; undefined when unset or empty. */
export function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === '' ? undefined : value;
}

/** A whole number from `min` to `max`, or `fallback` when unset. */
export function wholeNumber(
  env: Env,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const value = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!(value >= min && value <= max)) {
    throw new ConfigError(
      name,
      `must be a whole number from ${min} to ${max}, got "${raw}"`,
    );
  }
  return value;
}
