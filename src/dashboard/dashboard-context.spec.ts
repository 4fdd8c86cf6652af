import { safeNextPath } from './dashboard-context.js';

describe('safeNextPath', () => {
  it.each(['/dashboard/forms/abc', '/dashboard/account?done=x', '/dashboard'])(
    'keeps the dashboard path %s',
    (path) => expect(safeNextPath(path)).toBe(path),
  );

  it.each([
    'https://evil.example/dashboard',
    '//evil.example/dashboard',
    '/dashboardx',
    '/dashboard/\\evil',
    '/docs',
    undefined,
    ['a'],
  ])('replaces %j with the forms list', (next) => {
    expect(safeNextPath(next)).toBe('/dashboard/forms');
  });
});
