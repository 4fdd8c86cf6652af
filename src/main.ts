// The server's entry point: reads .env, validates the configuration, listens, and says
// where to go. Only light modules are imported up front, so that V8 is set for starting
// (start-footprint.ts) before the application's modules load and a bad setting is reported
// at once.
//
// Node's compile cache (module.enableCompileCache) is not turned on: measured side by side on
// Node 24 it did not start the server sooner, and it keeps every module's cached code in
// memory for the life of the process (11–14 MB). NODE_COMPILE_CACHE=<dir> turns it on.
import 'reflect-metadata';
import { ConfigError, loadConfig } from './config/app-config.js';
import { withEnvFile } from './config/env-file.js';
import { logDestination } from './common/logging/log-destination.js';
import {
  compactHeap,
  holdWhileStarting,
} from './common/runtime/start-footprint.js';
import { startIdleCompaction } from './common/runtime/idle-compaction.js';

const COMPACT_AFTER_READY_MS = 250;

// Start-up would otherwise leave V8's young generation at its largest and its optimising
// compilers' work resident, idle, for good.
const releaseV8Defaults = holdWhileStarting();

function configOrExit() {
  let fromFile: string[] = [];
  try {
    const environment = withEnvFile(process.env);
    fromFile = environment.fromFile;
    return { config: loadConfig(environment.env), envFile: environment.file };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const where = fromFile.includes(error.variable) ? ' (set in .env)' : '';
    console.error(`${error.message}${where}`);
    process.exit(1);
  }
}

const { config, envFile } = configOrExit();
const destination = await logDestination(config.logFormat);
const { closeOnSignals, createApp } = await import('./app.setup.js');
const { announceWhenReady } = await import('./ready-line.js');
const app = await createApp(config, { logDestination: destination });
closeOnSignals(app);
await app.listen({ port: config.port, host: config.host });
void announceWhenReady(app, config, envFile).then(
  () => {
    releaseV8Defaults();
    // In a moment (a first request may be waiting), what start-up left behind is given back.
    setTimeout(compactHeap, COMPACT_AFTER_READY_MS).unref();
    // And what a busy spell leaves behind, each time the process is idle again after one.
    startIdleCompaction();
  },
  async () => {
    // The database was migrated by a newer release (the log names the migrations): this
    // build must not serve it. Requests meanwhile answered 503, like a database still away.
    const { UNKNOWN_MIGRATIONS_EXIT_CODE } =
      await import('./common/database/unknown-migrations.js');
    await app.close();
    process.exit(UNKNOWN_MIGRATIONS_EXIT_CODE);
  },
);
