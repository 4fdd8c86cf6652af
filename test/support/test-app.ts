// Boots the real application (same createApp() as main.ts) on a loopback port against a
// fresh database: in-memory SQLite by default, or a new MySQL/MariaDB database created
// for this app when TEST_DATABASE_URL points at a server (dropped again on close).
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { DataSource } from 'typeorm';
import { createApp } from '../../src/app.setup.js';
import { loadConfig, type AppConfig } from '../../src/config/app-config.js';
import { DatabaseStateService } from '../../src/common/database/database-state.service.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';
import { recordResponses } from './response-recorder.js';

export const TEST_APP_SECRET = 'test-secret-test-secret-test-secret-0123456789';

export interface TestApp {
  app: NestFastifyApplication;
  config: AppConfig;
  /** http://127.0.0.1:PORT */
  url: string;
  dataSource: DataSource;
  /** Every JSON log line the app wrote so far. */
  logs: string[];
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Extra environment variables (as a user would set them). */
  env?: Record<string, string>;
  /** Reuse an existing database (e.g. two instances sharing one) instead of a fresh one. */
  database?: TestDatabase;
}

export async function createTestApp(
  options: TestAppOptions = {},
): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase());
  // Each app stores uploaded files in a directory of its own, removed on close.
  const storage = mkdtempSync(join(tmpdir(), 'formgate-uploads-'));
  const config = loadConfig({
    APP_SECRET: TEST_APP_SECRET,
    LOG_LEVEL: 'info',
    DATABASE_URL: database.url,
    STORAGE_URL: `file:${storage}`,
    // The full-text indexer runs only where a spec turns it on (test/e2e/inbox/).
    SEARCH_INDEX_INTERVAL_SECONDS: '0',
    ...options.env,
  });
  const logs: string[] = [];
  const logDestination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logs.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      callback();
    },
  });
  const recorder = recordResponses();
  const app = await createApp(config, {
    logDestination,
    observe: recorder.observe,
  });
  await app.get(DatabaseStateService).whenConnected();
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    app,
    config,
    url: `http://127.0.0.1:${port}`,
    dataSource: app.get(DataSource),
    logs,
    async close() {
      // Checked while the app still serves its document; reported once it is closed.
      const contract = await recorder.check(app);
      await app.close();
      if (!options.database) await database.drop();
      rmSync(storage, { recursive: true, force: true });
      contract.throwIfBroken();
    },
  };
}

/** The directory a test app stores uploaded files in (its STORAGE_URL is a file: one). */
export function uploadsRoot(t: TestApp): string {
  const storage = t.config.uploads.storage;
  if (storage.kind !== 'file') {
    throw new Error('this test app stores files in a bucket, not on disk');
  }
  return storage.root;
}
