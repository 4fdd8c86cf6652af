// Every route of the application declares who may call it (auth/route-access.decorator.ts):
// a permission of the role matrix, any signed-in person, or no one. Found by walking the
// controllers Nest has registered, never a list kept by hand: a route added without a
// declaration, or with one its guard cannot honour, fails here.
import {
  GUARDS_METADATA,
  METHOD_METADATA,
  PATH_METADATA,
} from '@nestjs/common/constants.js';
import { RequestMethod, type CanActivate, type Type } from '@nestjs/common';
import {
  DiscoveryService,
  MetadataScanner,
  ModulesContainer,
  Reflector,
} from '@nestjs/core';
import { ApiKeyGuard } from '../../../src/auth/api-key.guard.js';
import { PERMISSIONS } from '../../../src/auth/permissions.js';
import {
  ROUTE_ACCESS,
  type RouteAccess,
} from '../../../src/auth/route-access.decorator.js';
import { SignedInGuard } from '../../../src/dashboard/session/dashboard.guards.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

interface Route {
  name: string;
  access: RouteAccess | undefined;
  guards: Type<CanActivate>[];
}

function routesOf(t: TestApp): Route[] {
  // The app's own module graph, as Nest's DiscoveryModule would see it.
  const discovery = new DiscoveryService(t.app.get(ModulesContainer));
  const scanner = new MetadataScanner();
  const reflector = t.app.get(Reflector);
  const routes: Route[] = [];
  for (const wrapper of discovery.getControllers()) {
    const controller = wrapper.metatype as Type | null;
    if (!controller) continue;
    const prototype = controller.prototype as Record<string, unknown>;
    const base = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
    for (const method of scanner.getAllMethodNames(prototype)) {
      const handler = prototype[method] as (...args: unknown[]) => unknown;
      const path = Reflect.getMetadata(PATH_METADATA, handler) as
        string | undefined;
      if (path === undefined) continue;
      const verb = Reflect.getMetadata(METHOD_METADATA, handler) as number;
      const guards = [
        ...((Reflect.getMetadata(GUARDS_METADATA, controller) ??
          []) as Type<CanActivate>[]),
        ...((Reflect.getMetadata(GUARDS_METADATA, handler) ??
          []) as Type<CanActivate>[]),
      ];
      routes.push({
        name: `${RequestMethod[verb]} /${base}/${path} (${controller.name}.${method})`,
        access: reflector.getAllAndOverride<RouteAccess | undefined>(
          ROUTE_ACCESS,
          [handler, controller],
        ),
        guards,
      });
    }
  }
  return routes;
}

describe('route access declarations (e2e)', () => {
  let t: TestApp;
  let routes: Route[];

  beforeAll(async () => {
    t = await createTestApp();
    routes = routesOf(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('finds the routes of every controller', () => {
    expect(routes.length).toBeGreaterThan(60);
    expect(routes.map((r) => r.name)).toContainEqual(
      expect.stringContaining('POST /api/submit/:formId'),
    );
  });

  it('declares who may call each route', () => {
    const undeclared = routes.filter((r) => r.access === undefined);
    expect(undeclared.map((r) => r.name)).toEqual([]);
  });

  it('names only permissions of the matrix', () => {
    const unknown = routes.filter(
      (r) =>
        r.access?.kind === 'permission' &&
        !(PERMISSIONS as readonly string[]).includes(r.access.permission),
    );
    expect(unknown.map((r) => r.name)).toEqual([]);
  });

  it('declares a permission on every key-protected route', () => {
    const keyed = routes.filter((r) => r.guards.includes(ApiKeyGuard));
    expect(keyed.length).toBeGreaterThan(20);
    expect(
      keyed.filter((r) => r.access?.kind !== 'permission').map((r) => r.name),
    ).toEqual([]);
  });

  it('declares a permission or "signed in" on every signed-in page', () => {
    const pages = routes.filter((r) => r.guards.includes(SignedInGuard));
    expect(pages.length).toBeGreaterThan(20);
    expect(
      pages.filter((r) => r.access?.kind === 'public').map((r) => r.name),
    ).toEqual([]);
  });

  it('guards every route that is not public', () => {
    const open = routes.filter(
      (r) =>
        r.access?.kind !== 'public' &&
        !r.guards.includes(ApiKeyGuard) &&
        !r.guards.includes(SignedInGuard),
    );
    expect(open.map((r) => r.name)).toEqual([]);
  });
});
