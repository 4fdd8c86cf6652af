import { ForbiddenException, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host.js';
import type { ApiKeyService } from './api-key.service.js';
import {
  API_KEY_INVALID,
  API_KEY_READ_ONLY,
  API_KEY_REQUIRED,
  ApiKeyGuard,
  extractApiKey,
} from './api-key.guard.js';
import { PRINCIPAL, type ApiPrincipal } from './principal.js';
import { Requires } from './route-access.decorator.js';

/** A route as a controller declares it: what it requires. */
class Routes {
  @Requires('forms.read')
  read(): void {}

  @Requires('forms.write')
  write(): void {}

  undeclared(): void {}
}

function contextOf(request: object, handler: keyof Routes = 'read') {
  return new ExecutionContextHost(
    [request, {}],
    Routes,
    // eslint-disable-next-line @typescript-eslint/unbound-method
    Routes.prototype[handler],
  );
}

const FORM_KEY = 'fgk_the-form-key';
const PRINCIPAL_OF_KEY: ApiPrincipal = {
  kind: 'form',
  accountId: 'account-1',
  formId: 'form-1',
  previousKey: false,
};

interface FakeRequest {
  headers: Record<string, string | string[] | undefined>;
  query?: Record<string, unknown>;
  [PRINCIPAL]?: ApiPrincipal;
}

function setup() {
  const authenticate = vi.fn(async (key: string) =>
    key === FORM_KEY ? PRINCIPAL_OF_KEY : undefined,
  );
  const guard = new ApiKeyGuard(
    { authenticate } as unknown as ApiKeyService,
    new Reflector(),
  );
  const run = (request: FakeRequest, handler: keyof Routes = 'read') =>
    guard.canActivate(contextOf(request, handler));
  return { authenticate, run };
}

describe('ApiKeyGuard', () => {
  it('answers 401 with the message naming both transports when no key is sent', async () => {
    const { run, authenticate } = setup();
    const attempt = run({ headers: {}, query: {} });
    await expect(attempt).rejects.toBeInstanceOf(UnauthorizedException);
    await expect(attempt).rejects.toThrow(API_KEY_REQUIRED);
    expect(API_KEY_REQUIRED).toBe(
      'API key required: send it in the x-api-key header or the apiKey query parameter',
    );
    expect(authenticate).not.toHaveBeenCalled();
  });

  it('treats blank values as no key', async () => {
    const { run } = setup();
    await expect(
      run({ headers: { 'x-api-key': '   ' }, query: { apiKey: '' } }),
    ).rejects.toBeInstanceOf(UnauthorizedException);
  });

  it('answers 403 "Invalid API key" when the key matches nothing', async () => {
    const { run, authenticate } = setup();
    const attempt = run({ headers: { 'x-api-key': 'fgk_unknown' } });
    await expect(attempt).rejects.toBeInstanceOf(ForbiddenException);
    await expect(attempt).rejects.toThrow(API_KEY_INVALID);
    expect(API_KEY_INVALID).toBe('Invalid API key');
    expect(authenticate).toHaveBeenCalledWith('fgk_unknown');
  });

  it('attaches the principal of a key sent in the header', async () => {
    const { run } = setup();
    const request: FakeRequest = { headers: { 'x-api-key': FORM_KEY } };
    await expect(run(request)).resolves.toBe(true);
    // With where the request came from, for the audit log (no address on a fake request).
    expect(request[PRINCIPAL]).toEqual({
      ...PRINCIPAL_OF_KEY,
      client: { ip: null, userAgent: null },
    });
  });

  it('attaches the principal of a key sent in the query', async () => {
    const { run } = setup();
    const request: FakeRequest = { headers: {}, query: { apiKey: FORM_KEY } };
    await expect(run(request)).resolves.toBe(true);
    // With where the request came from, for the audit log (no address on a fake request).
    expect(request[PRINCIPAL]).toEqual({
      ...PRINCIPAL_OF_KEY,
      client: { ip: null, userAgent: null },
    });
  });

  it('answers 403 to a read-only (viewer) key on a route that changes something, and lets it read', async () => {
    const readOnly: ApiPrincipal = {
      kind: 'account',
      accountId: 'account-1',
      keyId: 'key-1',
      role: 'viewer',
    };
    const guard = new ApiKeyGuard(
      { authenticate: async () => readOnly } as unknown as ApiKeyService,
      new Reflector(),
    );
    const run = (method: string, handler: keyof Routes) => {
      const request = { method, headers: { 'x-api-key': 'fga_ro' } };
      return guard.canActivate(contextOf(request, handler));
    };
    await expect(run('GET', 'read')).resolves.toBe(true);
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const attempt = run(method, 'write');
      await expect(attempt).rejects.toBeInstanceOf(ForbiddenException);
      await expect(attempt).rejects.toThrow(API_KEY_READ_ONLY);
    }
  });

  it('answers 403 "This key cannot …" when the role lacks the route\'s permission', async () => {
    const previous: ApiPrincipal = { ...PRINCIPAL_OF_KEY, previousKey: true };
    const guard = new ApiKeyGuard(
      { authenticate: async () => previous } as unknown as ApiKeyService,
      new Reflector(),
    );
    const request = { method: 'PUT', headers: { 'x-api-key': FORM_KEY } };
    const attempt = guard.canActivate(contextOf(request, 'write'));
    await expect(attempt).rejects.toBeInstanceOf(ForbiddenException);
    await expect(attempt).rejects.toThrow('This key cannot change forms');
  });

  it('refuses every key on a route that declares no permission', async () => {
    const { run } = setup();
    const attempt = run({ headers: { 'x-api-key': FORM_KEY } }, 'undeclared');
    await expect(attempt).rejects.toBeInstanceOf(ForbiddenException);
  });

  it('does not attach a principal when it refuses', async () => {
    const { run } = setup();
    const request: FakeRequest = { headers: { 'x-api-key': 'nope' } };
    await expect(run(request)).rejects.toBeInstanceOf(ForbiddenException);
    expect(request[PRINCIPAL]).toBeUndefined();
  });
});

describe('extractApiKey', () => {
  it('prefers the header over the query parameter', () => {
    expect(
      extractApiKey({
        headers: { 'x-api-key': 'from-header' },
        query: { apiKey: 'from-query' },
      } as never),
    ).toBe('from-header');
  });

  it('takes the first value of a repeated query parameter', () => {
    expect(
      extractApiKey({ headers: {}, query: { apiKey: ['a', 'b'] } } as never),
    ).toBe('a');
  });

  it('ignores values that are not strings and a missing query', () => {
    expect(
      extractApiKey({ headers: {}, query: { apiKey: { a: 1 } } } as never),
    ).toBeUndefined();
    expect(extractApiKey({ headers: {} } as never)).toBeUndefined();
  });

  it('trims surrounding whitespace', () => {
    expect(
      extractApiKey({ headers: { 'x-api-key': ' key ' }, query: {} } as never),
    ).toBe('key');
  });
});
