// The server's entry point: reads .env, validates the configuration, listens, and says
// where to go. Only light modules are imported up front, so that Node's compile cache is on
// before the application's modules load and a bad setting is reported at once.
import 'reflect-metadata';
import * as nodeModule from 'node:module';
import { ConfigError, loadConfig } from './config/app-config.js';
import { withEnvFile } from './config/env-file.js';
import { logDestination } from './common/log-destination.js';
import { holdYoungGenerationWhileStarting } from './common/young-generation.js';

// Node 22.1+ keeps compiled code between starts; older versions simply lack the function.
nodeModule.enableCompileCache?.();
// Start-up would otherwise leave V8's young generation at its largest, idle, for good.
const releaseYoungGeneration = holdYoungGenerationWhileStarting();

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
void announceWhenReady(app, config, envFile).finally(releaseYoungGeneration);
