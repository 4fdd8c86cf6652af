// The one declaration every route makes of who may call it: a permission of the matrix
// (permissions.ts), checked by the API-key guard for keys and by the dashboard's signed-in
// guard for members; any signed-in person (their own sign-in, password, which account they
// work in); or no one at all. A route without one fails test/e2e/api/route-access.e2e-spec.ts.
import {
  applyDecorators,
  SetMetadata,
  type ExecutionContext,
} from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import { ApiExtension } from '@nestjs/swagger';
import type { Permission } from './permissions.js';

export type RouteAccess =
  | { kind: 'permission'; permission: Permission }
  | { kind: 'signed-in' }
  | { kind: 'public' };

export const ROUTE_ACCESS = 'formgate:route-access';

/** Only a key or a member whose role holds `permission` may call the route. */
export function Requires(
  permission: Permission,
): ClassDecorator & MethodDecorator {
  return applyDecorators(
    SetMetadata(ROUTE_ACCESS, {
      kind: 'permission',
      permission,
    } satisfies RouteAccess),
    // Tells readers of the OpenAPI document which role a key needs.
    ApiExtension('x-permission', permission),
  );
}

/** Any signed-in person, whatever their role: pages about themselves, not the account. */
export function SignedIn(): ClassDecorator & MethodDecorator {
  return SetMetadata(ROUTE_ACCESS, { kind: 'signed-in' } satisfies RouteAccess);
}

/** No one needs to be signed in or send a key (submit, sign-in pages, health, docs). */
export function Public(): ClassDecorator & MethodDecorator {
  return SetMetadata(ROUTE_ACCESS, { kind: 'public' } satisfies RouteAccess);
}

/** What the route (its handler, else its controller) declared, or undefined. */
export function routeAccessOf(
  reflector: Reflector,
  context: ExecutionContext,
): RouteAccess | undefined {
  return reflector.getAllAndOverride<RouteAccess | undefined>(ROUTE_ACCESS, [
    context.getHandler(),
    context.getClass(),
  ]);
}
