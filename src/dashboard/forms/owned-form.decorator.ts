import {
  createParamDecorator,
  Injectable,
  type ExecutionContext,
  type PipeTransform,
} from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Form } from '../../forms/form.entity.js';
import { FormsService } from '../../forms/forms.service.js';
import {
  dashboardContextOf,
  memberPrincipal,
  type DashboardContext,
} from '../dashboard-context.js';

/** What the pipe needs: who asks (SignedInGuard put it on the request) and the id. */
interface FormRequest {
  context: DashboardContext;
  id: string;
}

/**
 * Resolves a form id of a dashboard route to the form, for the signed-in member; the 404
 * page for an unknown form and for another account's (FormsService.findAccessible).
 */
@Injectable()
export class OwnedFormPipe implements PipeTransform<
  FormRequest,
  Promise<Form>
> {
  constructor(private readonly forms: FormsService) {}

  transform({ context, id }: FormRequest): Promise<Form> {
    return this.forms.findAccessible(memberPrincipal(context), id);
  }
}

const FormRequestOf = createParamDecorator(
  (param: string, ctx: ExecutionContext): FormRequest => {
    const request = ctx
      .switchToHttp()
      .getRequest<FastifyRequest<{ Params: Record<string, string> }>>();
    const context = dashboardContextOf(request);
    if (!context) throw new Error('OwnedForm used without SignedInGuard');
    return { context, id: request.params[param] };
  },
);

/**
 * The form named by the route's `:formId` (or `param`), as the signed-in member has it:
 * the dashboard's counterpart of the API's @AccessibleForm().
 */
export function OwnedForm(param = 'formId'): ParameterDecorator {
  return FormRequestOf(param, OwnedFormPipe);
}
