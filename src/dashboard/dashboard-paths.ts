// Where the dashboard's templates and static assets live. Resolved from this module's own
// location so the same code finds them when run from TypeScript (src/dashboard) and from
// the build (dist/src/dashboard, where nest-cli.json copies them).
import { fileURLToPath } from 'node:url';

export const VIEWS_DIR = fileURLToPath(new URL('./views/', import.meta.url));
export const PUBLIC_DIR = fileURLToPath(new URL('./public/', import.meta.url));

export const DASHBOARD_PREFIX = '/dashboard';
export const ASSETS_PREFIX = '/dashboard/assets/';
