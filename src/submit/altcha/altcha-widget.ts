// The ALTCHA widget (the `altcha` package's self-contained build, its workers inlined),
// served by the service itself at /static/altcha/altcha.js, so an owner's page loads no
// third-party script. Open to any origin like the challenge route; read once at start.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';

export const ALTCHA_WIDGET_PATH = '/static/altcha/altcha.js';

/** The UMD build: it runs from a plain `<script>` as well as a module script. */
function widgetSource(): Buffer {
  const main = fileURLToPath(import.meta.resolve('altcha'));
  return readFileSync(main.replace(/altcha\.js$/, 'altcha.umd.min.cjs'));
}

export function serveAltchaWidget(fastify: FastifyInstance): void {
  const body = widgetSource();
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  fastify.route({
    method: ['GET', 'HEAD'],
    url: ALTCHA_WIDGET_PATH,
    handler: (request, reply) => {
      void reply.headers({
        'access-control-allow-origin': '*',
        // Other sites' pages load it: the dashboard's same-origin policy is not for it.
        'cross-origin-resource-policy': 'cross-origin',
        'content-type': 'text/javascript; charset=utf-8',
        'cache-control': 'public, max-age=86400',
        'x-content-type-options': 'nosniff',
        etag,
      });
      if (request.headers['if-none-match'] === etag) {
        void reply.code(304).send();
        return;
      }
      void reply.send(body);
    },
  });
}
