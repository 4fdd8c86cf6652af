import {
  CallHandler,
  ExecutionContext,
  Injectable,
  NestInterceptor,
  SetMetadata,
  UseInterceptors,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Observable, throwError, timeout } from 'rxjs';
import { TemporarilyUnavailableException } from '../errors/errors.js';

/** No request waits on a hung dependency longer than this before answering 503. */
export const REQUEST_DEADLINE_MS = 5000;
const SKIP_DEADLINE = 'formgate:skip-deadline';

/** For routes whose work may legitimately run long (bulk deletes, streamed exports). */
export const NoDeadline = () => SetMetadata(SKIP_DEADLINE, true);

@Injectable()
export class DeadlineInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const skip = this.reflector.getAllAndOverride<boolean>(SKIP_DEADLINE, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (skip) return next.handle();
    return next.handle().pipe(
      timeout({
        first: REQUEST_DEADLINE_MS,
        with: () => throwError(() => new TemporarilyUnavailableException()),
      }),
    );
  }
}

/**
 * Puts the request deadline on every route of a controller. Applied per controller rather
 * than globally so the public submit route, which bounds its database work itself (form
 * cache, commit queue), runs without the interceptor machinery on its hot path. A test
 * checks that every other controller carries it.
 */
export const WithDeadline = () => UseInterceptors(DeadlineInterceptor);
