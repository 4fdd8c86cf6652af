/**
 * Who a management request acts for: an API key as established by ApiKeyGuard, or the
 * signed-in owner of an account in the dashboard. `keyExpiresAt`: when the key itself
 * stops working, if it does — what it creates or rotates may not outlive it.
 */
export type ApiPrincipal =
  | { kind: 'form'; accountId: string; formId: string; keyExpiresAt?: Date }
  | {
      kind: 'account';
      accountId: string;
      keyId: string;
      readOnly: boolean;
      keyExpiresAt?: Date;
    }
  | { kind: 'owner'; accountId: string };

export const PRINCIPAL = Symbol('formgate.principal');

export type RequestWithPrincipal = { [PRINCIPAL]?: ApiPrincipal };

/**
 * The one form a principal is confined to, or undefined when it reaches every form of
 * its account (an account key, the account's owner).
 */
export function confinedToForm(principal: ApiPrincipal): string | undefined {
  switch (principal.kind) {
    case 'form':
      return principal.formId;
    case 'account':
    case 'owner':
      return undefined;
    default:
      return principal satisfies never;
  }
}

/** Methods that only read: all a read-only key may use. */
const READ_METHODS = new Set(['GET', 'HEAD']);

/** true when the principal may not make a request with this method (a read-only key). */
export function refusesMethod(
  principal: ApiPrincipal,
  method: string,
): boolean {
  return (
    principal.kind === 'account' &&
    principal.readOnly &&
    !READ_METHODS.has(method.toUpperCase())
  );
}
