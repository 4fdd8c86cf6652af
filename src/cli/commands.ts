// The operator commands, apart from process concerns (argv, stdin, exit codes) so the
// parsing and the messages can be tested directly.
import { parseArgs } from 'node:util';
import type { AccountsService } from '../accounts/accounts.service.js';
import { parseExpiry } from '../accounts/key-expiry.js';
import {
  isKeyRole,
  KEY_ROLES,
  LEGACY_KEY_ROLE,
  type KeyRole,
} from '../auth/permissions.js';

export const USAGE = `Usage:
  npm run cli -- accounts:create --email <email> (--password <password> | --password-stdin)
      Creates an account and its first account API key.
  npm run cli -- keys:create --email <email> --name <key name> [--account <id>] [--role <role>] [--read-only] [--expires-at <ISO date>]
      Creates another account API key for the account of an existing owner (--account
      when they own several). --role: ${KEY_ROLES.join(', ')} (default admin);
      --read-only is --role viewer. --expires-at: refused from then on (e.g. 2026-12-31
      or 2026-12-31T18:00:00Z).

Each command prints one JSON object as its last line on stdout, e.g.
  {"accountId":"01J…","email":"owner@example.com","apiKey":"fga_…"}
Errors go to stderr; the exit code is 1 for a refused request, 2 for bad arguments.`;

/** The name of the key accounts:create makes alongside the account. */
export const INITIAL_KEY_NAME = 'Created with the account';

/** Bad arguments: exit code 2 and a hint to the usage. */
export class UsageError extends Error {}

/** A request the service refused (duplicate email, weak password, unknown account): exit code 1. */
export class CommandError extends Error {}

export type Command =
  | { name: 'help' }
  | {
      name: 'accounts:create';
      email: string;
      password?: string;
      passwordFromStdin: boolean;
    }
  | {
      name: 'keys:create';
      email: string;
      accountId?: string;
      keyName: string;
      role: KeyRole;
      expiresAt?: Date;
    };

function required(value: string | undefined, option: string): string {
  if (value === undefined || value.trim() === '') {
    throw new UsageError(`--${option} is required`);
  }
  return value;
}

export function parseCommand(argv: string[]): Command {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    // node's messages carry a multi-line hint; the first sentence is what matters here.
    const message = (error as Error).message.split(/\.\s/)[0];
    throw new UsageError(message);
  }
  const { values, positionals } = parsed;
  if (values.help) return { name: 'help' };
  const [name, ...extra] = positionals;
  if (name === undefined) throw new UsageError('a command is required');
  if (extra.length > 0) {
    throw new UsageError(`unexpected argument "${extra[0]}"`);
  }
  const allowed: Record<string, string[]> = {
    'accounts:create': ['email', 'password', 'password-stdin'],
    'keys:create': [
      'email',
      'account',
      'name',
      'role',
      'read-only',
      'expires-at',
    ],
  };
  if (!Object.hasOwn(allowed, name)) {
    throw new UsageError(`unknown command "${name}"`);
  }
  const misplaced = Object.keys(values).find(
    (option) => !allowed[name].includes(option),
  );
  if (misplaced !== undefined) {
    throw new UsageError(`--${misplaced} does not apply to ${name}`);
  }
  if (name === 'keys:create') {
    let expiresAt: Date | undefined;
    if (values['expires-at'] !== undefined) {
      expiresAt = parseExpiry(values['expires-at']);
      if (!expiresAt) {
        throw new UsageError(
          '--expires-at must be an ISO 8601 date, or a date and time with its time zone (e.g. 2026-12-31T23:59:59Z)',
        );
      }
    }
    const role = values.role ?? (values['read-only'] ? 'viewer' : undefined);
    if (role !== undefined && !isKeyRole(role)) {
      throw new UsageError(`--role must be one of ${KEY_ROLES.join(', ')}`);
    }
    if (values['read-only'] && role !== 'viewer') {
      throw new UsageError('--read-only is --role viewer: give one of them');
    }
    return {
      name,
      email: required(values.email, 'email'),
      ...(values.account === undefined
        ? {}
        : { accountId: required(values.account, 'account') }),
      keyName: required(values.name, 'name'),
      role: role ?? LEGACY_KEY_ROLE,
      ...(expiresAt ? { expiresAt } : {}),
    };
  }
  const passwordFromStdin = values['password-stdin'] === true;
  if (passwordFromStdin === (values.password !== undefined)) {
    throw new UsageError('give exactly one of --password or --password-stdin');
  }
  return {
    name: 'accounts:create',
    email: required(values.email, 'email'),
    password: values.password,
    passwordFromStdin,
  };
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      'password-stdin': { type: 'boolean' },
      name: { type: 'string' },
      account: { type: 'string' },
      role: { type: 'string' },
      'read-only': { type: 'boolean' },
      'expires-at': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

/** What a command prints: one JSON object on one line. */
export type CommandOutput = Record<string, string>;

/** Turns the service's refusals into one-line messages. */
function refusal(error: unknown): never {
  const { errors, message } = error as { errors?: unknown; message?: unknown };
  if (Array.isArray(errors) && errors.length > 0) {
    throw new CommandError(errors.join('; '));
  }
  if (
    error instanceof Error &&
    'getStatus' in error &&
    typeof message === 'string'
  ) {
    throw new CommandError(message);
  }
  throw error;
}

export async function runCommand(
  command: Exclude<Command, { name: 'help' }>,
  accounts: AccountsService,
  password: string | undefined,
): Promise<CommandOutput> {
  if (command.name === 'accounts:create') {
    const { user, account } = await accounts
      .create(command.email, password ?? '')
      .catch(refusal);
    const { apiKey } = await accounts
      .createApiKey(account.id, INITIAL_KEY_NAME)
      .catch(refusal);
    return { accountId: account.id, email: user.email, apiKey };
  }
  const email = command.email.trim().toLowerCase();
  const owned = await accounts.accountsOwnedBy(email);
  const accountId = command.accountId ?? owned[0];
  if (owned.length === 0) {
    throw new CommandError(`no account with the email ${command.email.trim()}`);
  }
  if (command.accountId === undefined && owned.length > 1) {
    throw new CommandError(
      `${email} owns ${owned.length} accounts: choose one with --account (${owned.join(', ')})`,
    );
  }
  if (!owned.includes(accountId)) {
    throw new CommandError(`${email} is not an owner of account ${accountId}`);
  }
  const { key, apiKey } = await accounts
    .createApiKey(accountId, command.keyName, {
      role: command.role,
      expiresAt: command.expiresAt ?? null,
    })
    .catch(refusal);
  return {
    accountId,
    email,
    apiKey,
    name: key.name,
    // Only when asked for, so the answer of a plain key stays as it was.
    ...(key.role === LEGACY_KEY_ROLE || key.readOnly ? {} : { role: key.role }),
    ...(key.readOnly ? { readOnly: 'true' } : {}),
    ...(key.expiresAt ? { expiresAt: key.expiresAt.toISOString() } : {}),
  };
}
