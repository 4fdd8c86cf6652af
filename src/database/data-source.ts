// Entry point for the TypeORM CLI (`npm run migration:*`): the same options as the app.
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig } from '../config/app-config.js';
import { buildDataSourceOptions } from './database-options.js';

const config = loadConfig();

export default new DataSource(buildDataSourceOptions(config.database, false));
