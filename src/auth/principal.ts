/** Who an API request acts for, as established by ApiKeyGuard. */
export type ApiPrincipal =
  | { kind: 'form'; accountId: string; formId: string }
  | { kind: 'account'; accountId: string; keyId: string };

export const PRINCIPAL = Symbol('formgate.principal');

export type RequestWithPrincipal = { [PRINCIPAL]?: ApiPrincipal };
