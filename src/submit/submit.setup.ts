// What the public submit routes need of Fastify beyond their controllers: the rate-limit
// headers of answers given before the guard, CORS and the preflight, the 405 a GET gets,
// the multipart parser (with where a body's files go), and the ALTCHA widget's script. Their
// POST routes are served by the adapter's lean instance, which has only these hooks and
// parsers; the preflights, GETs and the widget by the main one. What they answer: submit-answer.ts.
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { SplitFastifyAdapter } from '../common/http/split-fastify.adapter.js';
import { AppConfig } from '../config/app-config.js';
import {
  RATE_LIMIT_STORAGE,
  type RateLimitStorage,
} from '../rate-limit/rate-limit.storage.js';
import { serveAltchaWidget } from './altcha/altcha-widget.js';
import { addMultipartParser } from './multipart-parser.js';
import { configureRateLimitPeek } from './rate-limit/rate-limit-peek.js';
import { configureSubmitCors } from './submit-cors.js';
import { addSubmitGetRoutes } from './submit-get.js';
import { submitUploads } from './submit-uploads.js';

export function configureSubmit(app: NestFastifyApplication): void {
  const adapter = app.getHttpAdapter() as SplitFastifyAdapter;
  const fastify = adapter.getInstance();
  // The POST routes, on an instance with only these hooks (split-fastify.adapter.ts).
  const lean = adapter.lean;
  const config = app.get(AppConfig);
  const storage = app.get<symbol, RateLimitStorage>(RATE_LIMIT_STORAGE, {
    strict: false,
  });
  configureRateLimitPeek(lean, {
    limit: config.submitRateLimit,
    windowSeconds: config.submitRateWindowSeconds,
    storage,
  });
  configureSubmitCors(fastify, lean);
  addSubmitGetRoutes(fastify);
  addMultipartParser(lean, {
    limit: config.submitBodyLimit,
    uploadLimit: config.uploads.bodyLimit,
    idleTimeoutMs: config.uploads.idleTimeoutMs,
    uploadsFor: submitUploads(app),
  });
  serveAltchaWidget(fastify);
}
