// The OpenAPI document exactly as the application serves it at /docs-json: the app is built
// when stale and started in this process on an in-memory database, without listening.
import { build } from './build.mjs';

export async function servedDocument() {
  if (!build({ ifStale: true })) process.exit(1);
  const { createApp } = await import('../dist/src/app.setup.js');
  const { loadConfig } = await import('../dist/src/config/app-config.js');
  const app = await createApp(
    loadConfig({
      APP_SECRET: 'served-openapi-secret-served-openapi-secret-01',
      DATABASE_URL: 'sqlite::memory:',
      LOG_LEVEL: 'silent',
      WORKER_ENABLED: 'false',
    }),
  );
  try {
    const response = await app
      .getHttpAdapter()
      .getInstance()
      .inject({ method: 'GET', url: '/docs-json' });
    if (response.statusCode !== 200) {
      throw new Error(`/docs-json answered ${response.statusCode}`);
    }
    return response.body;
  } finally {
    await app.close();
  }
}
