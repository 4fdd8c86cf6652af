import type { DashboardSession } from '../../src/dashboard/session/dashboard-session.entity.js';
import { DashboardSessionsService } from '../../src/dashboard/session/dashboard-sessions.service.js';
import type { TestApp } from '../support/test-app.js';

export interface TestSession {
  session: DashboardSession;
  /** The cookie value (dashboard_session) of the session. */
  token: string;
}

/**
 * A signed-in dashboard session of the user, working in `accountId`, as logging in would
 * start it. Without `accountId`, the account the user signed up with (the same id).
 */
export function createDashboardSession(
  t: TestApp,
  userId: string,
  accountId: string = userId,
): Promise<TestSession> {
  return t.app
    .get(DashboardSessionsService)
    .start(userId, accountId, 'password');
}
