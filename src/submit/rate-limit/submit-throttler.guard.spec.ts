import {
  GUARDS_METADATA,
  METHOD_METADATA,
  PATH_METADATA,
} from '@nestjs/common/constants.js';
import { RequestMethod, type CanActivate, type Type } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host.js';
import { ThrottlerException, ThrottlerGuard } from '@nestjs/throttler';
import { MemoryRateLimitStorage } from '../../rate-limit/rate-limit.storage.js';
import type { RateLimitStorage } from '../../rate-limit/rate-limit.storage.js';
import { FormspreeController } from '../formspree/formspree.controller.js';
import { SubmitController } from '../submit.controller.js';
import { RATE_LIMITED_SUBMIT_ROUTES } from '../submit-urls.js';
import {
  SUBMIT_THROTTLER,
  SubmitThrottlerGuard,
  submitRateLimitKey,
} from './submit-throttler.guard.js';

const SUBMIT_CONTROLLERS: Type[] = [SubmitController, FormspreeController];

/** The POST routes a controller declares, as the paths Fastify registers. */
function postRoutes(controller: Type): { path: string; handler: string }[] {
  const prefix = Reflect.getMetadata(PATH_METADATA, controller) as string;
  const prototype = controller.prototype as Record<string, unknown>;
  return Object.getOwnPropertyNames(prototype)
    .filter(
      (name) =>
        Reflect.getMetadata(METHOD_METADATA, prototype[name] as object) ===
        RequestMethod.POST,
    )
    .map((handler) => ({
      path: `/${prefix}/${Reflect.getMetadata(PATH_METADATA, prototype[handler] as object) as string}`,
      handler,
    }));
}

function isThrottlerGuard(guard: unknown): boolean {
  return (
    typeof guard === 'function' &&
    (guard === ThrottlerGuard || guard.prototype instanceof ThrottlerGuard)
  );
}

/** The guards Nest runs for a handler: the class's, then the method's own. */
function guardsOf(controller: Type, handler: string): unknown[] {
  const method = (controller.prototype as Record<string, object>)[handler];
  return [
    ...((Reflect.getMetadata(GUARDS_METADATA, controller) as unknown[]) ?? []),
    ...((Reflect.getMetadata(GUARDS_METADATA, method) as unknown[]) ?? []),
  ];
}

describe('the submit controllers', () => {
  it('are the controllers of every rate-limited submit route', () => {
    const declared = SUBMIT_CONTROLLERS.flatMap((controller) =>
      postRoutes(controller).map((route) => route.path),
    );
    expect(new Set(declared)).toEqual(new Set(RATE_LIMITED_SUBMIT_ROUTES));
  });

  it.each(
    SUBMIT_CONTROLLERS.map((controller) => [controller.name, controller]),
  )(
    '%s declares the throttler guard on its submit route',
    (_name, controller) => {
      const routes = postRoutes(controller);
      expect(routes.length).toBeGreaterThan(0);
      for (const { handler } of routes) {
        const guards = guardsOf(controller, handler);
        expect(guards.filter(isThrottlerGuard)).toEqual([SubmitThrottlerGuard]);
      }
    },
  );
});

/** The guard as Nest's guards consumer calls it: a boolean, or a promise of one. */
function activate(
  guard: CanActivate,
  context: ExecutionContextHost,
): ReturnType<CanActivate['canActivate']> {
  return guard.canActivate(context);
}

/** What `run` throws at once, if anything. */
function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

interface FakeReply {
  headers: Record<string, string>;
  header(name: string, value: string): FakeReply;
}

function fakeReply(): FakeReply {
  const reply: FakeReply = {
    headers: {},
    header(name, value) {
      reply.headers[name] = value;
      return reply;
    },
  };
  return reply;
}

describe('SubmitThrottlerGuard', () => {
  let now: number;
  let memory: MemoryRateLimitStorage;

  async function guardOver(
    storage: RateLimitStorage,
    limit = 2,
  ): Promise<SubmitThrottlerGuard> {
    const guard = new SubmitThrottlerGuard(
      {
        throttlers: [{ name: SUBMIT_THROTTLER, limit, ttl: 60_000 }],
        storage,
      },
      storage,
      new Reflector(),
    );
    await guard.onModuleInit();
    return guard;
  }

  function contextOf(
    controller: Type,
    ip: string,
  ): { context: ExecutionContextHost; reply: FakeReply } {
    const reply = fakeReply();
    const context = new ExecutionContextHost(
      [{ ip, headers: {} }, reply],
      controller,
      (controller.prototype as Record<string, () => unknown>).submit,
    );
    context.setType('http');
    return { context, reply };
  }

  beforeEach(() => {
    now = 1_000_000;
    memory = new MemoryRateLimitStorage(() => now);
  });
  afterEach(() => memory.onApplicationShutdown());

  it('counts in memory without a promise, and writes every rate-limit header', async () => {
    const guard = await guardOver(memory);
    const { context, reply } = contextOf(SubmitController, '198.51.100.1');
    expect(activate(guard, context)).toBe(true);
    expect(reply.headers).toEqual({
      'x-ratelimit-limit': '2',
      'x-ratelimit-remaining': '1',
      'x-ratelimit-reset': '60',
      'ratelimit-policy': '"submit";q=2;w=60',
      ratelimit: '"submit";r=1;t=60',
    });
  });

  it('gives both routes one budget per client, under the key the headers hook peeks at', async () => {
    const guard = await guardOver(memory);
    expect(
      activate(guard, contextOf(SubmitController, '198.51.100.2').context),
    ).toBe(true);
    now += 5000;
    const { context, reply } = contextOf(FormspreeController, '198.51.100.2');
    expect(activate(guard, context)).toBe(true);
    expect(reply.headers['x-ratelimit-remaining']).toBe('0');
    expect(
      await memory.peek(submitRateLimitKey('198.51.100.2'), 60_000),
    ).toEqual({ totalHits: 2, timeToExpire: 55 });
    // Another client has a budget of its own.
    const other = contextOf(FormspreeController, '198.51.100.3');
    expect(activate(guard, other.context)).toBe(true);
    expect(other.reply.headers['x-ratelimit-remaining']).toBe('1');
  });

  it('refuses past the limit with ThrottlerException, Retry-After and the headers', async () => {
    const guard = await guardOver(memory, 1);
    expect(
      activate(guard, contextOf(SubmitController, '2001:db8:1:2::1').context),
    ).toBe(true);
    now += 20_000;
    // The same IPv6 /64.
    const { context, reply } = contextOf(
      FormspreeController,
      '2001:db8:1:2::9',
    );
    const refusal = thrownBy(() => activate(guard, context));
    expect(refusal).toBeInstanceOf(ThrottlerException);
    expect((refusal as ThrottlerException).getStatus()).toBe(429);
    expect((refusal as ThrottlerException).message).toBe(
      'Too many submissions: at most 1 per 60 seconds from one address. Retry in 40 seconds.',
    );
    expect(reply.headers).toEqual({
      'x-ratelimit-limit': '1',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': '40',
      'ratelimit-policy': '"submit";q=1;w=60',
      ratelimit: '"submit";r=0;t=40',
      'retry-after': '40',
    });
  });

  it('waits for a storage that answers later (Redis) and refuses the same way', async () => {
    const later: RateLimitStorage = {
      increment: (key, ttl, limit) => memory.increment(key, ttl, limit),
      peek: (key, ttl) => memory.peek(key, ttl),
      reset: (key) => memory.reset(key),
    };
    const guard = await guardOver(later, 1);
    const first = contextOf(SubmitController, '203.0.113.5');
    const answer = guard.canActivate(first.context);
    expect(answer).toBeInstanceOf(Promise);
    await expect(answer).resolves.toBe(true);
    expect(first.reply.headers['x-ratelimit-remaining']).toBe('0');
    await expect(
      guard.canActivate(contextOf(SubmitController, '203.0.113.5').context),
    ).rejects.toBeInstanceOf(ThrottlerException);
  });

  it('refuses to start without a fixed limit and window', async () => {
    const guard = new SubmitThrottlerGuard(
      { throttlers: [{ name: 'other', limit: 1, ttl: 1000 }] },
      memory,
      new Reflector(),
    );
    await expect(guard.onModuleInit()).rejects.toThrow(
      'The "submit" throttler needs a fixed limit and ttl',
    );
  });
});
