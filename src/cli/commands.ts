// The operator commands, apart from process concerns (argv, stdin, exit codes) so the
// parsing and the messages can be tested directly.
import { parseArgs } from 'node:util';
import type { AccountsService } from '../accounts/accounts.service.js';
import type { SecondFactorsService } from '../second-factors/second-factors.service.js';
import { CLI_ACTOR } from '../audit/audit-actor.js';
import type { AuditChainChecker } from '../audit/audit-chain-checker.js';
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
  npm run cli -- counters:rebuild
      Recounts every form's counters and per-day counts from its submissions (a database
      restored from before they were kept, or one written to by hand).
  npm run cli -- search:rebuild
      Empties the full-text index and indexes every submission again.
  npm run cli -- users:reset-2fa --email <email>
      Removes the user's second factors (TOTP, recovery codes, passkeys), for a person
      locked out of their account: they sign in with their password alone afterwards.
  npm run cli -- audit:verify [--account <id>]
      Walks each account's audit chain (or only that account's) and recomputes every
      hash: exit 0 with the counts, or exit 1 naming the first event that does not match.

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
  | { name: 'counters:rebuild' }
  | { name: 'search:rebuild' }
  | { name: 'audit:verify'; accountId?: string }
  | {
      name: 'accounts:create';
      email: string;
      password?: string;
      passwordFromStdin: boolean;
    }
  | { name: 'users:reset-2fa'; email: string }
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
    'counters:rebuild': [],
    'search:rebuild': [],
    'users:reset-2fa': ['email'],
    'audit:verify': ['account'],
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
  if (name === 'counters:rebuild' || name === 'search:rebuild') {
    return { name };
  }
  if (name === 'users:reset-2fa') {
    return { name, email: required(values.email, 'email') };
  }
  if (name === 'audit:verify') {
    return values.account === undefined
      ? { name }
      : { name, accountId: required(values.account, 'account') };
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

/** What the rebuild commands use (the counters, SearchIndexer and the forms' ids). */
export interface Rebuilders {
  formIds(): Promise<string[]>;
  rebuildCounters(formId: string): Promise<unknown>;
  rebuildSearch(): Promise<number>;
}

export type RebuildCommand = Extract<
  Command,
  { name: 'counters:rebuild' | 'search:rebuild' }
>;

export function isRebuild(command: Command): command is RebuildCommand {
  return (
    command.name === 'counters:rebuild' || command.name === 'search:rebuild'
  );
}

export async function runRebuild(
  command: RebuildCommand,
  rebuilders: Rebuilders,
): Promise<CommandOutput> {
  if (command.name === 'search:rebuild') {
    return { indexed: String(await rebuilders.rebuildSearch()) };
  }
  const ids = await rebuilders.formIds();
  for (const id of ids) await rebuilders.rebuildCounters(id);
  return { forms: String(ids.length) };
}

/** "10 recovery codes", "1 passkey". */
function count(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** users:reset-2fa: the user's second factors go (factor removed, for the operator). */
export async function resetSecondFactors(
  email: string,
  accounts: AccountsService,
  factors: SecondFactorsService,
): Promise<CommandOutput> {
  const user = await accounts.findUserByEmail(email.trim().toLowerCase());
  if (!user) throw new CommandError(`no user with the email ${email.trim()}`);
  const reset = await factors.resetAll(user.id);
  const removed = [
    ...(reset.totp ? ['two-step codes (TOTP)'] : []),
    count(reset.recoveryCodes, 'unused recovery code'),
    count(reset.passkeys, 'passkey'),
  ];
  return {
    userId: user.id,
    email: user.email,
    totp: reset.totp ? 'removed' : 'none',
    recoveryCodes: String(reset.recoveryCodes),
    passkeys: String(reset.passkeys),
    done: `Removed ${removed.join(', ')} of ${user.email}: they sign in with their password alone until they set a factor up again.`,
  };
}

/** audit:verify: the counts when every chain holds, else a CommandError naming the first bad event. */
export async function runAuditVerify(
  command: Extract<Command, { name: 'audit:verify' }>,
  verification: AuditChainChecker,
): Promise<CommandOutput> {
  const report = await verification.verify(command.accountId);
  const failed = report.chains.find((chain) => chain.failure !== undefined);
  if (failed) {
    throw new CommandError(`account ${failed.accountId}: ${failed.failure}`);
  }
  if (command.accountId !== undefined && report.chains.length === 0) {
    throw new CommandError(`no audit events for account ${command.accountId}`);
  }
  return {
    result: 'ok',
    accounts: String(report.chains.length),
    events: String(report.chains.reduce((sum, chain) => sum + chain.events, 0)),
  };
}

export async function runCommand(
  command: Exclude<
    Command,
    { name: 'help' | 'users:reset-2fa' | 'audit:verify' } | RebuildCommand
  >,
  accounts: AccountsService,
  password: string | undefined,
): Promise<CommandOutput> {
  if (command.name === 'accounts:create') {
    const { user, account } = await accounts
      .create(command.email, password ?? '')
      .catch(refusal);
    const { apiKey } = await accounts
      .createApiKey(account.id, INITIAL_KEY_NAME, { by: CLI_ACTOR })
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
      by: CLI_ACTOR,
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
