// The floor of the submit benchmark: the least a submit endpoint can do on the same
// machine. The bare Fastify route (bare-route.ts) with a mysql2 pool of 10 and one INSERT
// per request, answered after it returns.
//
//   FLOOR_DATABASE_URL=mysql://… FLOOR_FORM_ID=… FLOOR_PORT=… node floor-server.js
import { benchPool, formFields } from '../shared/mysql.js';
import { serveBareSubmit } from './bare-route.js';

const formId = process.env.FLOOR_FORM_ID ?? '';
const pool = benchPool(process.env.FLOOR_DATABASE_URL ?? '');

await serveBareSubmit({
  formId,
  fields: await formFields(pool, formId),
  port: Number(process.env.FLOOR_PORT ?? 3900),
  store: (row) =>
    pool.execute(
      'INSERT INTO submission (id, formId, data, ip, userAgent, origin, createdAt) VALUES (?, ?, ?, ?, ?, ?, ?)',
      row,
    ),
  close: () => pool.end(),
});
