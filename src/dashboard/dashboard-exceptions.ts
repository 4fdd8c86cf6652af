import { ForbiddenException, HttpException, HttpStatus } from '@nestjs/common';

/** A signed-out visitor asked for a signed-in page: the filter sends them to log in. */
export class LoginRequiredException extends HttpException {
  constructor(readonly returnTo: string | undefined) {
    super('Please log in to continue', HttpStatus.UNAUTHORIZED);
  }
}

/** A state-changing post without the form's CSRF token. */
export class CsrfRejectedException extends ForbiddenException {
  constructor() {
    super(
      'This form has expired or was not sent from the Formgate dashboard. Go back, reload the page and try again.',
    );
  }
}

/**
 * A signed-in request that must go elsewhere first: a half-signed-in session to its second
 * step, a member whose account requires a second factor to set one up.
 */
export class DashboardRedirectException extends HttpException {
  constructor(readonly target: string) {
    super('Please continue where this sends you', HttpStatus.SEE_OTHER);
  }
}
