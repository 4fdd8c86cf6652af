// Every route answers within the request deadline, even when a dependency hangs: the
// deadline is applied per controller (so the submit routes — /api/submit and its
// Formspree-compatible twin /f, one path that bounds its own database work — skip the
// interceptor machinery). This proves no other controller forgets it.
import { INTERCEPTORS_METADATA } from '@nestjs/common/constants.js';
import { ModulesContainer } from '@nestjs/core';
import { DeadlineInterceptor } from '../../../src/common/http/deadline.interceptor.js';
import { FormspreeController } from '../../../src/submit/formspree/formspree.controller.js';
import { SubmitController } from '../../../src/submit/submit.controller.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

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

  const SUBMIT_ROUTES: Function[] = [SubmitController, FormspreeController];

  it('is on every controller except the public submit routes', () => {
    const all = controllers();
    for (const controller of SUBMIT_ROUTES) expect(all).toContain(controller);
    expect(all.length).toBeGreaterThan(5);
    const missing = all
      .filter((controller) => !SUBMIT_ROUTES.includes(controller))
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

  it('is not on the submit routes, which bound their database work themselves', () => {
    for (const controller of SUBMIT_ROUTES) {
      const interceptors = (Reflect.getMetadata(
        INTERCEPTORS_METADATA,
        controller,
      ) ?? []) as unknown[];
      expect(interceptors).not.toContain(DeadlineInterceptor);
    }
  });
});
