// The one template engine instance of the dashboard. @fastify/view renders pages with it
// (reply.view), and the dashboard's exception filter renders error pages with it
// synchronously, because reply.view() inside an exception filter sends nothing.
import { Eta } from 'eta';
import { VIEWS_DIR } from './dashboard-paths.js';

export const dashboardViews = new Eta({
  views: VIEWS_DIR,
  // Every <%= %> is HTML-escaped; raw <%~ %> is only used for rendered templates.
  autoEscape: true,
  // configureDashboard turns caching on in production (through @fastify/view).
  cache: false,
});
