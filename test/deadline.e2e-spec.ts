// Every route answers within the request deadline, even when a dependency hangs: the
// deadline is applied per controller (so the submit route, which bounds its own database
// work, skips the interceptor machinery). This proves no other controller forgets it.
import { INTERCEPTORS_METADATA } from '@nestjs/common/constants.js';
import { ModulesContainer } from '@nestjs/core';
import { DeadlineInterceptor } from '../src/common/deadline.interceptor.js';
import { SubmitController } from '../src/submit/submit.controller.js';
import { createTestApp, type TestApp } from './support/test-app.js';

describe('request deadline', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });

  afterAll(async () => {
    await t?.close();
  });

  function controllers(): Function[] {
    const found = new Set<Function>();
    for (const module of t.app.get(ModulesContainer).values()) {
      for (const wrapper of module.controllers.values()) {
        if (typeof wrapper.metatype === 'function') found.add(wrapper.metatype);
      }
    }
    return [...found];
  }

  it('is on every controller except the public submit route', () => {
    const all = controllers();
    expect(all).toContain(SubmitController);
    expect(all.length).toBeGreaterThan(5);
    const missing = all
      .filter((controller) => controller !== SubmitController)
      .filter((controller) => {
        const interceptors = (Reflect.getMetadata(
          INTERCEPTORS_METADATA,
          controller,
        ) ?? []) as unknown[];
        return !interceptors.includes(DeadlineInterceptor);
      })
      .map((controller) => controller.name);
    expect(missing).toEqual([]);
  });

  it('is not on the submit route, which bounds its database work itself', () => {
    const interceptors = (Reflect.getMetadata(
      INTERCEPTORS_METADATA,
      SubmitController,
    ) ?? []) as unknown[];
    expect(interceptors).not.toContain(DeadlineInterceptor);
  });
});
