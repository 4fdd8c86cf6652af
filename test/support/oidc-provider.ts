// A real OpenID provider on loopback for the SSO tests: oidc-provider (certified) on
// 127.0.0.1 and a random port, with one confidential client whose redirect URI is the
// app's callback. There is no login page: whoever `signInAs()` names is signed in and
// consents at once, so a test follows the redirects over HTTP (`authorize()`).
//
//   const idp = await startOidcProvider({ redirectUri: 'http://formgate.test/dashboard/sso/callback' });
//   idp.signInAs({ email: 'ann@acme.test', emailVerified: true });
//   const callback = await idp.authorize(providerUrlFromTheApp);  // the app's callback URL
//   idp.tamperIdToken((claims) => ({ ...claims, aud: 'someone-else' }));  // re-signed
//   await idp.close();
//
// `tamperIdToken` rewrites the ID tokens the token endpoint hands out and signs them again
// with the provider's own key (or, with `foreignKey`, with a key it does not publish): the
// shape of a misbehaving or impersonated provider, for the refusals the app must make.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  decodeJwt,
  exportJWK,
  generateKeyPair,
  SignJWT,
  type CryptoKey,
  type JWTPayload,
} from 'jose';
import Provider from 'oidc-provider';

export interface OidcUser {
  email: string;
  emailVerified: boolean;
  name?: string;
}

export type ClaimsTamper = (claims: JWTPayload) => JWTPayload;

export interface TestOidcProvider {
  /** `http://127.0.0.1:PORT`, the issuer identifier (and discovery base). */
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Who signs in (and consents) at the next authorization. */
  signInAs(user: OidcUser): void;
  /** Rewrites the ID tokens handed out from now on (null: stop). */
  tamperIdToken(
    tamper: ClaimsTamper | null,
    options?: { foreignKey?: boolean },
  ): void;
  /**
   * Follows an authorization URL through the provider (a fresh browser: no session there)
   * until it redirects to the app's callback, and returns that callback URL.
   */
  authorize(url: string): Promise<URL>;
  close(): Promise<void>;
}

export interface OidcProviderOptions {
  redirectUri: string;
  clientId?: string;
  clientSecret?: string;
}

const KID = 'test-signing-key';

export async function startOidcProvider(
  options: OidcProviderOptions,
): Promise<TestOidcProvider> {
  const clientId = options.clientId ?? 'formgate-test';
  const clientSecret =
    options.clientSecret ?? 'provider-client-secret-0123456789abcdef';
  const server: Server = createServer();
  await new Promise<void>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve()),
  );
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;

  const signing = await generateKeyPair('RS256', { extractable: true });
  const foreign = await generateKeyPair('RS256', { extractable: true });
  const jwk = {
    ...(await exportJWK(signing.privateKey)),
    kid: KID,
    alg: 'RS256',
    use: 'sig',
  };

  const users = new Map<string, OidcUser>();
  let current: OidcUser | undefined;
  let tamper: { fn: ClaimsTamper; key: CryptoKey } | null = null;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [options.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: ['oidc-provider-test-cookie-key'] },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name'],
    },
    // As Google, Entra ID and Okta do: the scope's claims are in the ID token itself.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: {
      url: (_ctx: unknown, interaction: { uid: string }) =>
        `/interaction/${interaction.uid}`,
    },
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      Grant: 600,
      IdToken: 600,
      Interaction: 600,
      Session: 600,
    },
    findAccount: (_ctx: unknown, id: string) => {
      const user = users.get(id);
      if (!user) return undefined;
      return {
        accountId: id,
        claims: () => ({
          sub: id,
          email: user.email,
          email_verified: user.emailVerified,
          name: user.name ?? user.email,
        }),
      };
    },
  });
  // Tests see refusals in the app, not the provider's console chatter.
  provider.on('server_error', () => {});

  provider.use(async (ctx, next) => {
    await next();
    const body = ctx.body as { id_token?: unknown } | undefined;
    if (
      tamper &&
      ctx.method === 'POST' &&
      ctx.path === '/token' &&
      body &&
      typeof body.id_token === 'string'
    ) {
      const claims = tamper.fn(decodeJwt(body.id_token));
      ctx.body = {
        ...body,
        id_token: await new SignJWT(claims)
          .setProtectedHeader({ alg: 'RS256', kid: KID })
          .sign(tamper.key),
      };
    }
  });

  const handle = provider.callback();
  server.on('request', (req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      void (async () => {
        try {
          const details = await provider.interactionDetails(req, res);
          let result: Record<string, unknown>;
          if (details.prompt.name === 'login') {
            if (!current) throw new Error('signInAs() was not called');
            users.set(current.email, current);
            result = { login: { accountId: current.email } };
          } else {
            const accountId = details.session?.accountId ?? '';
            const grant = details.grantId
              ? await provider.Grant.find(details.grantId)
              : new provider.Grant({
                  accountId,
                  clientId: String(details.params.client_id),
                });
            if (!grant) throw new Error('grant not found');
            grant.addOIDCScope('openid email profile');
            result = { consent: { grantId: await grant.save() } };
          }
          await provider.interactionFinished(req, res, result, {
            mergeWithLastSubmission: true,
          });
        } catch (error) {
          res.statusCode = 500;
          res.end(String(error));
        }
      })();
      return;
    }
    handle(req, res);
  });

  return {
    issuer,
    clientId,
    clientSecret,
    signInAs(user) {
      current = { ...user, email: user.email.toLowerCase() };
    },
    tamperIdToken(fn, tamperOptions = {}) {
      tamper = fn
        ? {
            fn,
            key: tamperOptions.foreignKey
              ? foreign.privateKey
              : signing.privateKey,
          }
        : null;
    },
    async authorize(url) {
      const cookies = new Map<string, string>();
      let next = new URL(url);
      for (let hop = 0; hop < 12; hop++) {
        if (next.href.startsWith(options.redirectUri)) return next;
        if (next.origin !== issuer) {
          throw new Error(
            `the authorization left the provider for ${next.href}`,
          );
        }
        const response = await fetch(next, {
          redirect: 'manual',
          headers: {
            cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
          },
        });
        for (const line of response.headers.getSetCookie()) {
          const [pair] = line.split(';');
          const eq = pair.indexOf('=');
          const name = pair.slice(0, eq).trim();
          const value = pair.slice(eq + 1).trim();
          if (value) cookies.set(name, value);
          else cookies.delete(name);
        }
        const location = response.headers.get('location');
        if (!location) {
          throw new Error(
            `the provider answered ${response.status} at ${next.pathname}: ${(await response.text()).slice(0, 500)}`,
          );
        }
        await response.arrayBuffer().catch(() => undefined);
        next = new URL(location, next);
      }
      throw new Error('too many redirects at the provider');
    },
    close() {
      return new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}
