// GET on a submit route: opened in a browser, the endpoint explains itself (405) instead
// of looking like a wrong id.
import type { FastifyInstance } from 'fastify';
import { FORMSPREE_ROUTE } from './formspree/formspree-answers.js';
import { SUBMIT_ROUTE } from './submit-urls.js';

export const SUBMIT_GET_MESSAGE =
  'This address receives form submissions: send them with POST, from an HTML form (method="POST") or from a script (fetch with method "POST"), as JSON, form-encoded or multipart/form-data.';

export function addSubmitGetRoutes(fastify: FastifyInstance): void {
  for (const url of [SUBMIT_ROUTE, FORMSPREE_ROUTE]) {
    fastify.route({
      method: 'GET',
      url,
      handler: (_request, reply) => {
        void reply.code(405).header('allow', 'POST, OPTIONS').send({
          error: SUBMIT_GET_MESSAGE,
        });
      },
    });
  }
}
