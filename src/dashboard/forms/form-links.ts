// Where a form's dashboard pages live, and the redirect after a post that changed something:
// back to a page of the form, with `?done=` naming the notice to show and an anchor to land on.
import type { FastifyReply } from 'fastify';

/** `/dashboard/forms/<id>`, or one of its pages (`settings`, `notifications`, …). */
export function formPath(formId: string, page = ''): string {
  const path = `/dashboard/forms/${encodeURIComponent(formId)}`;
  return page ? `${path}/${page}` : path;
}

/**
 * A submission's page; `done` names the notice after a post, `back` the inbox query it was
 * opened from (its "Back to submissions" returns there).
 */
export function submissionPath(
  formId: string,
  submissionId: string,
  { done, back }: { done?: string; back?: string } = {},
): string {
  const params = new URLSearchParams();
  if (done) params.set('done', done);
  if (back) params.set('back', back);
  const query = params.toString();
  return `${formPath(formId)}/submissions/${encodeURIComponent(submissionId)}${query ? `?${query}` : ''}`;
}

/** 303 to a page of the form with its notice (`done`) and, when given, an anchor. */
export function redirectToForm(
  reply: FastifyReply,
  formId: string,
  { page = '', done, anchor }: { page?: string; done: string; anchor?: string },
): FastifyReply {
  const hash = anchor ? `#${anchor}` : '';
  return reply.redirect(`${formPath(formId, page)}?done=${done}${hash}`, 303);
}
