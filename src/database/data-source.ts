// Entry point for the TypeORM CLI (`npm run migration:*`): the same options as the app.
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig } from '../config/app-config.js';
import { withEnvFile } from '../config/env-file.js';
import { buildDataSourceOptions } from './database-options.js';

const config = loadConfig(withEnvFile().env);

export default new DataSource(buildDataSourceOptions(config.database, false));
