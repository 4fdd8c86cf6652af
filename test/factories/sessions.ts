import type { DashboardSession } from '../../src/dashboard/session/dashboard-session.entity.js';
import { DashboardSessionsService } from '../../src/dashboard/session/dashboard-sessions.service.js';
import type { TestApp } from '../support/test-app.js';

export interface TestSession {
  session: DashboardSession;
  /** The cookie value (dashboard_session) of the session. */
  token: string;
}

/** A signed-in dashboard session of the account, as logging in would start it. */
export function createDashboardSession(
  t: TestApp,
  accountId: string,
): Promise<TestSession> {
  return t.app.get(DashboardSessionsService).start(accountId);
}
