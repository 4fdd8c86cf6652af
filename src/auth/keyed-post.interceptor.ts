// What runs around every POST of a key-protected route, once the key has said who is
// asking: the Idempotency-Key handling (idempotency/idempotency.interceptor.ts), which
// provides API_POST_INTERCEPTOR. Named by a token so that auth, which every feature
// imports, imports none of them.
import {
  Inject,
  Injectable,
  Optional,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import type { Observable } from 'rxjs';

export const API_POST_INTERCEPTOR = Symbol('formgate.api-post-interceptor');

@Injectable()
export class KeyedPostInterceptor implements NestInterceptor {
  constructor(
    @Optional()
    @Inject(API_POST_INTERCEPTOR)
    private readonly delegate?: NestInterceptor,
  ) {}

  intercept(
    context: ExecutionContext,
    next: CallHandler,
  ): Observable<unknown> | Promise<Observable<unknown>> {
    const method = context
      .switchToHttp()
      .getRequest<{ method: string }>().method;
    if (this.delegate === undefined || method !== 'POST') return next.handle();
    return this.delegate.intercept(context, next);
  }
}
