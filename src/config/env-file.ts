// The optional .env file of an installation: KEY=value lines read at start by the server,
// the CLI and the migration tools, so a setting written there applies to all of them.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseEnv } from 'node:util';
import { ConfigError } from './app-config.js';

export const ENV_FILE_NAME = '.env';

type Env = Record<string, string | undefined>;

export interface EnvWithFile {
  /** The variables of the file overlaid by the real environment. */
  env: Env;
  /** Absolute path of the file that was read; undefined when there is none. */
  file?: string;
  /** Names the file set that the real environment did not already set. */
  fromFile: string[];
}

/**
 * Reads `.env` from the working directory when it exists. A variable that is set in the
 * real environment always wins, as in Docker, systemd and Node's own --env-file, so an
 * operator can override one setting for one run without editing the file.
 */
export function withEnvFile(
  env: Env = process.env,
  file = resolve(ENV_FILE_NAME),
): EnvWithFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return { env, fromFile: [] };
    }
    throw new ConfigError(
      ENV_FILE_NAME,
      `cannot be read: ${(error as Error).message}`,
    );
  }
  const parsed = parseEnv(text) as Env;
  const merged: Env = { ...env };
  const fromFile: string[] = [];
  for (const [name, value] of Object.entries(parsed)) {
    if (merged[name] !== undefined) continue;
    merged[name] = value;
    fromFile.push(name);
  }
  return { env: merged, file, fromFile };
}
