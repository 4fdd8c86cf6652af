import {
  Inject,
  Injectable,
  Param,
  Scope,
  type PipeTransform,
} from '@nestjs/common';
import { PARAMTYPES_METADATA } from '@nestjs/common/constants.js';
import { REQUEST } from '@nestjs/core';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { PRINCIPAL, type RequestWithPrincipal } from '../../auth/principal.js';
import type { Form } from '../form.entity.js';
import { FormsService } from '../forms.service.js';

/**
 * Resolves the form id of the route to the form, for the principal ApiKeyGuard attached
 * to the request; 404 "Form not found" otherwise (FormsService.findAccessible).
 * Request-scoped because a pipe sees only the value, and the answer depends on who asks.
 */
@Injectable({ scope: Scope.REQUEST })
export class AccessibleFormPipe implements PipeTransform<
  string,
  Promise<Form>
> {
  constructor(
    @Inject(REQUEST) private readonly request: RequestWithPrincipal,
    private readonly forms: FormsService,
  ) {}

  async transform(id: string): Promise<Form> {
    const principal = this.request[PRINCIPAL];
    if (!principal) {
      throw new Error('AccessibleForm used on a route without @ApiKeyAuth()');
    }
    // Nest runs a handler's parameter pipes concurrently and answers the first error.
    // Validating a body or query settles within the current turn, so waiting for the
    // next one keeps their 400 ahead of this 404, as when handlers looked the form up.
    await nextTurn();
    return this.forms.findAccessible(principal, id);
  }
}

/**
 * The form named by the route's `:id` (or `param`), as the request's principal may
 * reach it: 404 `{error: 'Form not found'}` for an unknown form or one the key does not
 * reach. Still a path parameter, so the OpenAPI document lists it where it did.
 */
export function AccessibleForm(param = 'id'): ParameterDecorator {
  return (target, method, index) => {
    Param(param, AccessibleFormPipe)(target, method, index);
    // What the URL carries is a string id: say so to the validation pipe (which
    // leaves strings alone) and to the OpenAPI document, not the handler's Form type.
    // Parameter decorators run after the compiler has recorded the types.
    if (method === undefined) return;
    const types = Reflect.getMetadata(PARAMTYPES_METADATA, target, method) as
      unknown[] | undefined;
    if (!types) return;
    const declared = [...types];
    declared[index] = String;
    Reflect.defineMetadata(PARAMTYPES_METADATA, declared, target, method);
  };
}
