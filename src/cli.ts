// Operator commands (`npm run cli -- <command>`): create accounts and account API keys, and
// rebuild the counters and the search index, without the dashboard. The result is the last
// stdout line, as JSON; logs go to stderr.
import {
  CommandError,
  isRebuild,
  parseCommand,
  runRebuild,
  resetSecondFactors,
  runAuditVerify,
  runCommand,
  USAGE,
  UsageError,
  type Command,
} from './cli/commands.js';
import { ConfigError, loadConfig } from './config/app-config.js';
import { withEnvFile } from './config/env-file.js';

/** How long a command waits for the database before giving up. */
const CONNECT_TIMEOUT_MS = 15_000;

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

async function withDeadline<T>(work: Promise<T>, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new CommandError(message)),
      CONNECT_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

async function execute(command: Exclude<Command, { name: 'help' }>) {
  const config = loadConfig(withEnvFile(process.env).env);
  const password =
    command.name !== 'accounts:create'
      ? undefined
      : command.passwordFromStdin
        ? await readStdin()
        : command.password;
  // Loaded only now, so usage errors and --help answer without booting the framework.
  await import('reflect-metadata');
  const [
    { NestFactory },
    { default: pino },
    logging,
    cliModule,
    accounts,
    db,
    audit,
  ] = await Promise.all([
    import('@nestjs/core'),
    import('pino'),
    import('./common/logging/logger.js'),
    import('./cli/cli.module.js'),
    import('./accounts/accounts.service.js'),
    import('./common/database/database-state.service.js'),
    import('./audit/audit-chain-checker.js'),
  ]);
  // Quieter than the server: at the default level a command logs only warnings and errors.
  const level = config.logLevel === 'info' ? 'warn' : config.logLevel;
  const logger = logging.createLogger(level, pino.destination(2));
  const context = await NestFactory.createApplicationContext(
    cliModule.CliModule.forRoot(config),
    { logger: new logging.PinoNestLogger(logger), abortOnError: false },
  );
  try {
    await withDeadline(
      context.get(db.DatabaseStateService).whenConnected(),
      `the database did not answer within ${CONNECT_TIMEOUT_MS / 1000} s; check DATABASE_URL`,
    );
    if (isRebuild(command)) {
      const [{ FormCounterRepository }, { SearchIndexer }, { FormRepository }] =
        await Promise.all([
          import('./submissions/counters/form-counter.repository.js'),
          import('./submissions/search/search-indexer.js'),
          import('./forms/form.repository.js'),
        ]);
      const counters = context.get(FormCounterRepository);
      const search = context.get(SearchIndexer);
      const forms = context.get(FormRepository);
      return await runRebuild(command, {
        formIds: async () => {
          const ids: string[] = [];
          for (;;) {
            const page = await forms.idsAfter(ids.at(-1) ?? '', 500);
            ids.push(...page);
            if (page.length < 500) return ids;
          }
        },
        rebuildCounters: (formId) => counters.rebuild(formId),
        rebuildSearch: () => search.rebuild(),
      });
    }
    if (command.name === 'users:reset-2fa') {
      const { SecondFactorsService } =
        await import('./second-factors/second-factors.service.js');
      return await resetSecondFactors(
        command.email,
        context.get(accounts.AccountsService),
        context.get(SecondFactorsService),
      );
    }
    if (command.name === 'audit:verify') {
      return await runAuditVerify(
        command,
        context.get(audit.AuditChainChecker),
      );
    }
    return await runCommand(
      command,
      context.get(accounts.AccountsService),
      password,
    );
  } finally {
    await context.close();
  }
}

async function main(argv: string[]): Promise<number> {
  let command: Command;
  try {
    command = parseCommand(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`error: ${error.message} (see --help)\n`);
    return 2;
  }
  if (command.name === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  try {
    const output = await execute(command);
    process.stdout.write(`${JSON.stringify(output)}\n`);
    return 0;
  } catch (error) {
    const known = error instanceof CommandError || error instanceof ConfigError;
    const message = error instanceof Error ? error.message : String(error);
    // One line on stderr: the first line of an unexpected error is its message.
    process.stderr.write(
      `error: ${known ? message : message.split('\n')[0]}\n`,
    );
    return 1;
  }
}

// Explicit exit: a database driver's idle socket must not keep a finished command alive.
process.exit(await main(process.argv.slice(2)));
