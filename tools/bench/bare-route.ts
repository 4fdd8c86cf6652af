// The submit route the bare servers share (floor-server.ts, ceiling-server.ts): Fastify with
// no rate limit, CORS, logging or framework beyond it, the form's fields read once at start,
// Formgate's own field validation and its own id generator, and the answer sent once
// `store` has stored the row. Keyed (`keyed`), a request's Idempotency-Key also gets the
// record Formgate keeps for it, stored with the row.
import Fastify from 'fastify';
import { SecretBoxService } from '../../src/auth/secret-box.service.js';
import { newUlid } from '../../src/common/values/ulid.js';
import type { AppConfig } from '../../src/config/app-config.js';
import type { FieldDefinition } from '../../src/forms/form.entity.js';
import {
  IDEMPOTENCY_HEADER,
  IDEMPOTENCY_TTL_MS,
  idempotencyRecordId,
  requestFingerprint,
} from '../../src/idempotency/idempotency-key.js';
import { compileSubmissionValidator } from '../../src/submit/submission-validator.js';
import { BENCH_SECRET } from '../shared/process.js';

/** A submission row in the order of INSERT … (id, formId, data, ip, userAgent, origin, createdAt). */
export type BareRow = [
  string,
  string,
  string,
  string,
  string | null,
  string | null,
  Date,
];

/**
 * An idempotency_record row in the order of INSERT … (id, fingerprint, status, response,
 * createdAt, expiresAt).
 */
export type BareRecord = [string, string, number, string, Date, Date];

const ANSWER = { success: true, message: 'Submission received' };

/** Listens on 127.0.0.1:`port`, prints `ready`, and stops on SIGTERM after `close`. */
export async function serveBareSubmit(options: {
  formId: string;
  fields: FieldDefinition[];
  port: number;
  /** `record` is given to a keyed server, for a request that sent an Idempotency-Key. */
  store: (row: BareRow, record?: BareRecord) => Promise<unknown>;
  close: () => Promise<unknown>;
  keyed?: boolean;
}): Promise<void> {
  const { formId, store } = options;
  const validate = compileSubmissionValidator(options.fields);
  const scope = `submit:${formId}`;
  // The kept answer, sealed once as Formgate seals it (and, like Formgate, reused).
  const sealed = options.keyed
    ? JSON.stringify(
        new SecretBoxService({ appSecret: BENCH_SECRET } as AppConfig).encrypt(
          JSON.stringify(ANSWER),
        ),
      )
    : undefined;
  const app = Fastify({ logger: false });
  app.post<{ Params: { formId: string } }>(
    '/api/submit/:formId',
    async (request, reply) => {
      if (request.params.formId !== formId) {
        return reply.code(404).send({ error: 'Form not found' });
      }
      const result = validate(request.body);
      if (!result.ok) {
        return reply
          .code(400)
          .send({ error: 'Validation failed', errors: result.errors });
      }
      const now = Date.now();
      const key = request.headers[IDEMPOTENCY_HEADER];
      const record: BareRecord | undefined =
        sealed !== undefined && typeof key === 'string'
          ? [
              idempotencyRecordId(scope, key),
              requestFingerprint('POST', request.url, request.body),
              200,
              sealed,
              new Date(now),
              new Date(now + IDEMPOTENCY_TTL_MS),
            ]
          : undefined;
      await store(
        [
          newUlid(now),
          formId,
          JSON.stringify(result.data),
          request.ip,
          request.headers['user-agent'] ?? null,
          request.headers.origin ?? null,
          new Date(now),
        ],
        record,
      );
      return ANSWER;
    },
  );
  await app.listen({ port: options.port, host: '127.0.0.1' });
  process.stdout.write('ready\n');
  process.on('SIGTERM', () => {
    void app
      .close()
      .then(options.close)
      .then(() => process.exit(0));
  });
}
