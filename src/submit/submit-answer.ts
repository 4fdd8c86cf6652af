// What a public submit route answers, decided once, here: a script gets JSON (on
// /f/:formId an error in Formspree's shape); a person's browser leaving the page through a
// native form post gets a page with the same status, or 303 See Other to the form's
// redirect target after a success. The controllers send their successes through
// sendSubmitted(); every failure — thrown by a controller, raised by Fastify before it
// (413, 415, bad JSON, an unknown path), or the rate limit's 429 — through sendSubmitError().
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorAnswerWriter } from '../common/errors/error-answer.js';
import type { ErrorResponse } from '../common/errors/error-response.js';
import {
  ValidationFailedException,
  type ErrorIssue,
} from '../common/errors/errors.js';
import {
  formspreeErrors,
  isFormspreeUrl,
} from './formspree/formspree-answers.js';
import {
  labelled,
  PAGE_HEADERS,
  refusalPage,
  thankYouPage,
  validationPage,
} from './pages/submit-pages.js';
import { SUBMIT_CORS_HEADERS } from './submit-cors.js';
import {
  isNavigation,
  redirectTarget,
  type RedirectPolicy,
} from './submit-navigation.js';
import { isPublicSubmitUrl } from './submit-urls.js';

/** The form a success was for, as far as its page needs it. */
export interface SubmittedForm extends RedirectPolicy {
  successMessage: string | null;
}

/**
 * A success: `json` for a script; for a navigating browser 303 to the form's redirect
 * target (`redirectKey` names the body field that may pick one), else the thank-you page.
 */
export function sendSubmitted(
  request: FastifyRequest,
  reply: FastifyReply,
  json: object,
  form: SubmittedForm,
  redirectKey?: string,
): void {
  if (!isNavigation(request.headers)) {
    void reply.send(json);
    return;
  }
  const location = redirectTarget(form, request.body, redirectKey);
  if (location !== null) {
    void reply
      .code(303)
      .header('location', location)
      .header('cache-control', 'no-store')
      .send();
    return;
  }
  void reply
    .headers(PAGE_HEADERS)
    .send(thankYouPage(form.successMessage, request.headers.referer));
}

/**
 * A failure, from its `{error}` answer: a page for a navigating browser, Formspree's
 * `{error, errors: [{field?, code?, message}]}` for a script on /f/:formId (`issues` give
 * each validation message its field and code), else the answer as it is.
 */
export function sendSubmitError(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: ErrorResponse,
  issues?: readonly ErrorIssue[],
): void {
  const { status, body } = answer;
  // Raised before routing, a failure has not had the CORS hook: the headers are promised
  // on every answer.
  void reply
    .status(status)
    .headers(answer.headers)
    .headers(SUBMIT_CORS_HEADERS);
  if (isNavigation(request.headers)) {
    const referer = request.headers.referer;
    void reply.headers(PAGE_HEADERS).send(
      status === 400 && body.errors !== undefined
        ? validationPage(body.errors, referer, issues)
        : refusalPage(
            status,
            // A file too large says which field, named as the visitor knows it.
            body.errors
              ?.map((error, index) => labelled(error, issues?.[index]))
              .join(' ') ?? body.error,
            referer,
          ),
    );
    return;
  }
  void reply.type('application/json; charset=utf-8');
  void reply.send(
    isFormspreeUrl(request.url) ? formspreeErrors(status, body, issues) : body,
  );
}

/** How the exception filter and Fastify's framework errors answer on the submit routes. */
export const submitErrorAnswers: ErrorAnswerWriter = {
  owns: isPublicSubmitUrl,
  write(request, reply, answer, exception) {
    sendSubmitError(
      request,
      reply,
      answer,
      exception instanceof ValidationFailedException
        ? exception.issues
        : undefined,
    );
  },
};
