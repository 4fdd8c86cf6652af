// Idempotency-Key on every POST of /api/v1 (docs/api.md): the key is claimed (a row in
// flight) before the route runs, so a second request with it — on any instance — waits
// its turn (409) or, once the first has answered 2xx, gets that answer again. An answer
// that is not 2xx lets the key go: a corrected retry proceeds. Applied with ApiKeyAuth, so
// the principal is known; without the header it only looks at the method and the header.
import {
  HttpStatus,
  Injectable,
  UnprocessableEntityException,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { catchError, from, mergeMap, Observable, of, throwError } from 'rxjs';
import {
  PRINCIPAL,
  type ApiPrincipal,
  type RequestWithPrincipal,
} from '../auth/principal.js';
import { extractApiKey } from '../auth/api-key.guard.js';
import { hashApiKey } from '../auth/api-keys.js';
import { RetryLaterConflictException } from '../common/errors/errors.js';
import {
  IDEMPOTENCY_IN_FLIGHT,
  IDEMPOTENCY_KEY_REUSED,
  idempotencyKeyOf,
  idempotencyRecordId,
  REPLAYED_HEADER,
  requestFingerprint,
} from './idempotency-key.js';
import { IdempotencyStore, type KeyState } from './idempotency.store.js';

/**
 * The scope of a request's Idempotency-Keys: the API key that sent it, never its account
 * or form — an answer may carry a new key or secret, and another key (a second account
 * key, a form's previous key during a rotation's grace) must not get it by replay. An
 * account key by its id; a form key by the hash of the key presented (the current and the
 * previous key of a form are two scopes); the dashboard's owner by the account.
 */
export function principalScope(
  principal: ApiPrincipal,
  presentedKey: string | undefined,
): string {
  switch (principal.kind) {
    case 'account':
      return `api:account-key:${principal.keyId}`;
    case 'form':
      return `api:form-key:${hashApiKey(presentedKey ?? '')}`;
    case 'member':
      return `api:member:${principal.accountId}:${principal.userId}`;
    default:
      return principal satisfies never;
  }
}

/** The answer to a request whose key is taken: the kept answer, 422 or 409. */
export function answerForTakenKey(
  held: Exclude<KeyState, { state: 'free' }>,
  fingerprint: string,
): { status: number; body: string } {
  if (held.fingerprint !== fingerprint) {
    throw new UnprocessableEntityException(IDEMPOTENCY_KEY_REUSED);
  }
  if (held.state === 'in-flight') {
    throw new RetryLaterConflictException(IDEMPOTENCY_IN_FLIGHT, 1);
  }
  return held.answer;
}

@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(private readonly store: IdempotencyStore) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest & RequestWithPrincipal>();
    if (request.method !== 'POST') return next.handle();
    const key = idempotencyKeyOf(request.headers);
    const principal = request[PRINCIPAL];
    if (key === undefined || principal === undefined) return next.handle();
    const reply = http.getResponse<FastifyReply>();
    const id = idempotencyRecordId(
      principalScope(principal, extractApiKey(request)),
      key,
    );
    const fingerprint = requestFingerprint(
      request.method,
      request.url,
      request.body,
    );
    return from(this.store.claim(id, fingerprint)).pipe(
      mergeMap((claim) => {
        if (claim !== 'claimed') {
          if (claim.state === 'free') {
            throw new RetryLaterConflictException(IDEMPOTENCY_IN_FLIGHT, 1);
          }
          const kept = answerForTakenKey(claim, fingerprint);
          void reply.status(kept.status).header(REPLAYED_HEADER, 'true');
          return of(kept.body === '' ? undefined : JSON.parse(kept.body));
        }
        return this.run(next, reply, id);
      }),
    );
  }

  /** Runs the route; keeps a 2xx JSON answer, lets the key go otherwise. */
  private run(
    next: CallHandler,
    reply: FastifyReply,
    id: string,
  ): Observable<unknown> {
    return next.handle().pipe(
      mergeMap((result) => {
        const status = reply.statusCode;
        const body = result === undefined ? '' : JSON.stringify(result);
        const keep =
          status >= HttpStatus.OK &&
          status < 300 &&
          (result === undefined || typeof body === 'string');
        // The work is done: the answer goes out even if it cannot be kept (the claim
        // then lapses after IN_FLIGHT_TTL_MS).
        const done = (
          keep
            ? this.store.answer(id, { status, body })
            : this.store.releaseClaim(id)
        ).catch(() => undefined);
        return from(done).pipe(mergeMap(() => of(result)));
      }),
      catchError((error: unknown) =>
        from(this.store.releaseClaim(id).catch(() => undefined)).pipe(
          mergeMap(() => throwError(() => error)),
        ),
      ),
    );
  }
}
