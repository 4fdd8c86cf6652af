// The submit route the bare servers share (floor-server.ts, ceiling-server.ts): Fastify with
// no rate limit, CORS, logging or framework beyond it, the form's fields read once at start,
// Formgate's own field validation and its own id generator, and the answer sent once
// `store` has stored the row.
import Fastify from 'fastify';
import { newUlid } from '../../src/common/ulid.js';
import type { FieldDefinition } from '../../src/forms/form.entity.js';
import { compileSubmissionValidator } from '../../src/submit/submission-validator.js';

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

/** Listens on 127.0.0.1:`port`, prints `ready`, and stops on SIGTERM after `close`. */
export async function serveBareSubmit(options: {
  formId: string;
  fields: FieldDefinition[];
  port: number;
  store: (row: BareRow) => Promise<unknown>;
  close: () => Promise<unknown>;
}): Promise<void> {
  const { formId, store } = options;
  const validate = compileSubmissionValidator(options.fields);
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
      await store([
        newUlid(now),
        formId,
        JSON.stringify(result.data),
        request.ip,
        request.headers['user-agent'] ?? null,
        request.headers.origin ?? null,
        new Date(now),
      ]);
      return { success: true, message: 'Submission received' };
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
