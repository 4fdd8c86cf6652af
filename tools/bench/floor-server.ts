// The floor of the submit benchmark: the least a submit endpoint can do on the same
// machine. Fastify with a mysql2 pool of 10, the form's configuration read once at start,
// Formgate's own field validation, and one INSERT per request, answered after it returns.
// No rate limit, CORS, logging or framework beyond Fastify.
//
//   FLOOR_DATABASE_URL=mysql://… FLOOR_FORM_ID=… FLOOR_PORT=… node floor-server.js
import Fastify from 'fastify';
import { ulid } from 'ulid';
import { compileSubmissionValidator } from '../../src/submit/submission-validator.js';
import { benchPool, formFields } from '../shared/mysql.js';

const formId = process.env.FLOOR_FORM_ID ?? '';
const port = Number(process.env.FLOOR_PORT ?? 3900);

const pool = benchPool(process.env.FLOOR_DATABASE_URL ?? '');
const fields = await formFields(pool, formId);
const validate = compileSubmissionValidator(fields);

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
    await pool.execute(
      'INSERT INTO submission (id, formId, data, ip, userAgent, origin, createdAt) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [
        ulid(),
        formId,
        JSON.stringify(result.data),
        request.ip,
        request.headers['user-agent'] ?? null,
        request.headers.origin ?? null,
        new Date(),
      ],
    );
    return { success: true, message: 'Submission received' };
  },
);
await app.listen({ port, host: '127.0.0.1' });
process.stdout.write('ready\n');
process.on('SIGTERM', () => {
  void app.close().then(() => pool.end().then(() => process.exit(0)));
});
