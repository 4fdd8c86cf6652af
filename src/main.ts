import 'reflect-metadata';
import { closeOnSignals, createApp } from './app.setup.js';
import { ConfigError, loadConfig } from './config/app-config.js';

function loadConfigOrExit() {
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}

const config = loadConfigOrExit();
const app = await createApp(config);
closeOnSignals(app);
await app.listen({ port: config.port, host: config.host });
