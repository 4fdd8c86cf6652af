// Fastify plugins the dashboard needs: cookies, templates, its own static assets and the
// security headers (a strict CSP everywhere, relaxed for the Swagger UI under /docs).
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import fastifyView from '@fastify/view';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AppConfig } from '../config/app-config.js';
import { isPublicSubmitUrl } from '../submit/submit-urls.js';
import { ASSETS_PREFIX, PUBLIC_DIR, VIEWS_DIR } from './dashboard-paths.js';
import { dashboardViews } from './dashboard-views.js';
import { sendErrorPage } from './error-page.js';
import { viewHelpers } from './view-helpers.js';
import {
  WEBAUTHN_BROWSER_PATH,
  webauthnBrowserBundle,
} from './passkey-scripts.js';

/** No inline script or style anywhere; forms post only to us; never framed. */
export const STRICT_CSP = {
  defaultSrc: ["'self'"],
  baseUri: ["'none'"],
  connectSrc: ["'self'"],
  fontSrc: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  imgSrc: ["'self'", 'data:'],
  objectSrc: ["'none'"],
  scriptSrc: ["'self'"],
  scriptSrcAttr: ["'none'"],
  styleSrc: ["'self'"],
};

/** Swagger UI styles itself inline and uses data: images. */
export const DOCS_CSP = {
  ...STRICT_CSP,
  imgSrc: ["'self'", 'data:', 'https:'],
  styleSrc: ["'self'", "'unsafe-inline'"],
};

/** Routes whose answers are pages a person's browser navigates to. */
function servesPages(url: string): boolean {
  return (
    url === '/dashboard' ||
    url.startsWith('/dashboard/') ||
    url.startsWith('/confirm-email/')
  );
}

function isDocsUrl(url: string): boolean {
  return (
    url === '/docs' ||
    url.startsWith('/docs/') ||
    url.startsWith('/docs-') ||
    url.startsWith('/docs?')
  );
}

export async function configureDashboard(
  app: NestFastifyApplication,
  config: AppConfig,
): Promise<void> {
  const production = config.nodeEnv === 'production';
  // Cookies are parsed where they are read (cookieOf), not by a hook on every request.
  await app.register(fastifyCookie, { hook: false });
  await app.register(fastifyHelmet, {
    // Applied per request below, so /docs can get its own policy.
    global: false,
    contentSecurityPolicy: { useDefaults: false, directives: STRICT_CSP },
  });
  const fastify = app.getHttpAdapter().getInstance();
  // Fastify refuses some requests before a controller (and so its exception filter) runs: a
  // body too large, a content type no parser reads, a malformed body. On the dashboard's
  // routes and the email confirmation page those get the HTML error page too. Nest
  // registers its routes later, in app.init().
  fastify.addHook('onRoute', (route) => {
    if (servesPages(route.url)) route.errorHandler = sendErrorPage;
  });
  fastify.addHook('onRequest', (request, reply, done) => {
    // The public submit routes answer JSON to scripts on other sites: they set their own
    // few headers and skip this per-request work.
    if (isPublicSubmitUrl(request.url)) {
      done();
      return;
    }
    if (isDocsUrl(request.url)) {
      reply.helmet({
        contentSecurityPolicy: { useDefaults: false, directives: DOCS_CSP },
      });
    } else {
      reply.helmet();
    }
    done();
  });
  await app.register(fastifyView, {
    engine: { eta: dashboardViews },
    templates: VIEWS_DIR,
    production,
    defaultContext: { h: viewHelpers },
  });
  // @simplewebauthn/browser's bundle from node_modules, beside the dashboard's own assets.
  fastify.get(WEBAUTHN_BROWSER_PATH, (_request, reply) => {
    void reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', production ? 'public, max-age=3600' : 'no-cache')
      .send(webauthnBrowserBundle());
  });
  await app.register(fastifyStatic, {
    root: PUBLIC_DIR,
    prefix: ASSETS_PREFIX,
    // @nestjs/swagger registers @fastify/static as well; only one may decorate the reply.
    decorateReply: false,
    index: false,
    maxAge: production ? '1h' : 0,
  });
}
