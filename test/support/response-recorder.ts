// Records every response a test app sends (method, path, status, content type, body) and,
// when the app closes, checks them against the app's own /docs-json (openapi-contract.ts):
// an e2e test that receives an answer the document does not declare fails in its teardown,
// with one line per undeclared route, status, content type or body shape.
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import {
  OpenApiContract,
  type OpenApiDocument,
  type RecordedResponse,
} from './openapi-contract.js';

/** Bodies larger than this are checked for status and type only. */
const MAX_BODY = 256 * 1024;
/** Responses kept per method, path, status and type: enough to see every shape. */
const MAX_PER_KIND = 20;

export interface ContractResult {
  throwIfBroken(): void;
}

export function recordResponses(): {
  observe: (fastify: FastifyInstance) => void;
  check: (app: NestFastifyApplication) => Promise<ContractResult>;
} {
  const kinds = new Map<string, number>();
  const responses: RecordedResponse[] = [];
  return {
    observe(fastify) {
      // Added last, so it sees the payload every other hook settled on (HTML pages included).
      fastify.addHook('onSend', (request, reply, payload, done) => {
        const path = request.url.split('?')[0];
        const header = reply.getHeader('content-type');
        const contentType =
          typeof header === 'string'
            ? header.split(';')[0].trim().toLowerCase()
            : '';
        const key = `${request.method} ${path} ${reply.statusCode} ${contentType}`;
        const seen = kinds.get(key) ?? 0;
        if (seen < MAX_PER_KIND) {
          kinds.set(key, seen + 1);
          let body: string | undefined;
          if (typeof payload === 'string') body = payload;
          else if (Buffer.isBuffer(payload)) body = payload.toString('utf8');
          else if (payload === null || payload === undefined) body = '';
          if (body !== undefined && body.length > MAX_BODY) body = undefined;
          responses.push({
            method: request.method,
            path,
            status: reply.statusCode,
            contentType,
            body,
          });
        }
        done(null, payload);
      });
    },
    async check(app) {
      const answer = await app
        .getHttpAdapter()
        .getInstance()
        .inject({ method: 'GET', url: '/docs-json' });
      if (answer.statusCode !== 200) {
        return {
          throwIfBroken() {
            throw new Error(
              `/docs-json answered ${answer.statusCode}: the responses could not be checked`,
            );
          },
        };
      }
      const contract = new OpenApiContract(
        JSON.parse(answer.body) as OpenApiDocument,
      );
      const violations = contract.violations(responses);
      return {
        throwIfBroken() {
          if (violations.length === 0) return;
          throw new Error(
            `The app sent ${violations.length} kind(s) of response its OpenAPI document (/docs-json) does not declare:\n` +
              violations.map((v) => `  - ${v}`).join('\n'),
          );
        },
      };
    },
  };
}
