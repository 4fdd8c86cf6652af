// The OpenID Connect side of a sign-in: discovery, the authorization URL, and the code
// exchange with every check of the ID token. openid-client v6 compares the claims; the
// signature it trusts to TLS, so it is verified here against the provider's JWKS with jose.
import { createRemoteJWKSet, errors as joseErrors, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { SsoRefusalException, type SsoProblem } from './sso-refusal.js';

/** Seconds a provider has to answer each request (the dashboard's deadline is longer). */
const PROVIDER_TIMEOUT_S = 4;

/** oauth4webapi's code for a token outside its time (not re-exported by openid-client). */
const JWT_TIMESTAMP_CHECK = 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED';

const LOOPBACK_HOSTS = new Set(['localhost', '[::1]']);

/** Plain http is allowed for loopback issuers only (tests, a provider on the same host). */
export function isLoopbackUrl(url: URL): boolean {
  return (
    LOOPBACK_HOSTS.has(url.hostname) ||
    /^127\.\d+\.\d+\.\d+$/.test(url.hostname)
  );
}

/** Why an issuer URL cannot be used, or null when it can. */
export function issuerUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'Issuer URL must be a full address such as https://accounts.google.com';
  }
  if (url.protocol === 'https:') {
    return url.search || url.hash
      ? 'Issuer URL must not have a query or fragment'
      : null;
  }
  if (url.protocol === 'http:' && isLoopbackUrl(url)) return null;
  return 'Issuer URL must use https:// (plain http only for a provider on this machine)';
}

export interface OidcClientSettings {
  issuerUrl: string;
  clientId: string;
  clientSecret: string;
}

export interface AuthorizationStart {
  url: URL;
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface VerifiedIdentity {
  subject: string;
  email: string;
  emailVerified: boolean;
}

/** The provider's configuration from its discovery document (refusal when unreachable or not its own issuer). */
export async function discover(
  settings: OidcClientSettings,
): Promise<oidc.Configuration> {
  const issuer = new URL(settings.issuerUrl);
  try {
    return await oidc.discovery(
      issuer,
      settings.clientId,
      undefined,
      oidc.ClientSecretBasic(settings.clientSecret),
      {
        timeout: PROVIDER_TIMEOUT_S,
        execute:
          issuer.protocol === 'http:' && isLoopbackUrl(issuer)
            ? [oidc.allowInsecureRequests]
            : [],
      },
    );
  } catch (error) {
    throw new SsoRefusalException(
      problemOf(error) === 'issuer' ? 'issuer' : 'provider-unreachable',
    );
  }
}

export async function startAuthorization(
  config: oidc.Configuration,
  redirectUri: string,
): Promise<AuthorizationStart> {
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'openid email profile',
    response_type: 'code',
    state,
    nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
  });
  return { url, state, nonce, codeVerifier };
}

/** Exchanges the callback's code and checks the ID token; every failure is an SsoRefusalException. */
export async function finishAuthorization(
  config: oidc.Configuration,
  callbackUrl: URL,
  checks: { state: string; nonce: string; codeVerifier: string },
): Promise<VerifiedIdentity> {
  let idToken: string | undefined;
  try {
    const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
      expectedState: checks.state,
      expectedNonce: checks.nonce,
      pkceCodeVerifier: checks.codeVerifier,
      idTokenExpected: true,
    });
    idToken = tokens.id_token;
  } catch (error) {
    throw new SsoRefusalException(problemOf(error));
  }
  if (!idToken) throw new SsoRefusalException('provider-refused');
  const metadata = config.serverMetadata();
  if (!metadata.jwks_uri) throw new SsoRefusalException('signature');
  const jwksUri = new URL(metadata.jwks_uri);
  if (jwksUri.protocol !== 'https:' && !isLoopbackUrl(jwksUri)) {
    throw new SsoRefusalException('signature');
  }
  let claims: Record<string, unknown>;
  try {
    const verified = await jwtVerify(
      idToken,
      createRemoteJWKSet(jwksUri, {
        timeoutDuration: PROVIDER_TIMEOUT_S * 1000,
      }),
      {
        issuer: metadata.issuer,
        audience: config.clientMetadata().client_id,
        requiredClaims: ['exp', 'iat', 'sub', 'nonce'],
      },
    );
    claims = verified.payload;
  } catch (error) {
    throw new SsoRefusalException(joseProblemOf(error));
  }
  // openid-client compared it already; a second look costs nothing.
  if (claims.nonce !== checks.nonce) throw new SsoRefusalException('nonce');
  const email = typeof claims.email === 'string' ? claims.email : '';
  return {
    subject: String(claims.sub),
    email,
    emailVerified: claims.email_verified === true,
  };
}

function joseProblemOf(error: unknown): SsoProblem {
  if (error instanceof joseErrors.JWTExpired) return 'expired';
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    if (error.claim === 'iss') return 'issuer';
    if (error.claim === 'aud') return 'audience';
    if (error.claim === 'nbf' || error.claim === 'iat') return 'expired';
    return 'signature';
  }
  if (
    error instanceof joseErrors.JWKSTimeout ||
    (error instanceof Error && error.name === 'TypeError')
  ) {
    return 'provider-unreachable';
  }
  return 'signature';
}

/** What went wrong, from openid-client's (and oauth4webapi's) error and its causes. */
function problemOf(error: unknown): SsoProblem {
  const chain: Array<{ code?: unknown; message?: unknown; claim?: unknown }> =
    [];
  let current: unknown = error;
  for (
    let depth = 0;
    depth < 5 && current && typeof current === 'object';
    depth++
  ) {
    chain.push(current as { code?: unknown });
    current = (current as { cause?: unknown }).cause;
  }
  const codes = chain.map((entry) => entry.code);
  const claim = chain.find((entry) => typeof entry.claim === 'string')?.claim;
  const messages = chain
    .map((entry) => (typeof entry.message === 'string' ? entry.message : ''))
    .join(' ');
  if (
    error instanceof oidc.AuthorizationResponseError ||
    error instanceof oidc.ResponseBodyError
  ) {
    return 'provider-refused';
  }
  if (codes.includes(JWT_TIMESTAMP_CHECK) || claim === 'exp') {
    return 'expired';
  }
  if (claim === 'nonce') return 'nonce';
  if (claim === 'aud' || claim === 'azp') return 'audience';
  if (claim === 'iss' || /"iss"|issuer/.test(messages)) return 'issuer';
  if (/"state"/.test(messages)) return 'state';
  return 'provider-unreachable';
}
