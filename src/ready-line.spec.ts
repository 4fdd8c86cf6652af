import { loadConfig } from './config/app-config.js';
import {
  browserUrl,
  describeDatabase,
  readyDetails,
  readyLine,
} from './ready-line.js';

const SECRET = 's'.repeat(40);

describe('the ready line', () => {
  it('names the address, dashboard, API docs, database and secret in one line', () => {
    const config = loadConfig({ APP_SECRET: SECRET });
    const line = readyLine(readyDetails(config, 3000, undefined, '/srv/app'));
    expect(line).toBe(
      'Formgate is ready at http://localhost:3000 · dashboard http://localhost:3000/dashboard · ' +
        'API docs http://localhost:3000/docs · database SQLite ./data/formgate.sqlite · ' +
        'APP_SECRET from the environment',
    );
    expect(line).not.toContain('\n');
  });

  it('says a secret was generated, and where, and which .env was read', () => {
    const config = loadConfig({ APP_SECRET: SECRET });
    config.appSecretSource = 'generated';
    config.appSecretFile = '/srv/app/data/secret';
    const details = readyDetails(config, 3000, '/srv/app/.env', '/srv/app');
    expect(details.secret).toBe(
      'a new APP_SECRET was generated into ./data/secret (keep that file: it encrypts the stored API keys)',
    );
    expect(readyLine(details)).toMatch(/ · settings from \.\/\.env$/);
  });

  it('opens a wildcard listen address as localhost and keeps a specific one', () => {
    expect(browserUrl('0.0.0.0', 3000)).toBe('http://localhost:3000');
    expect(browserUrl('::', 8080)).toBe('http://localhost:8080');
    expect(browserUrl('127.0.0.1', 3000)).toBe('http://127.0.0.1:3000');
    expect(browserUrl('::1', 3000)).toBe('http://[::1]:3000');
  });

  it('describes the database without its password', () => {
    expect(
      describeDatabase({
        type: 'mysql',
        url: 'mysql://formgate:s3cret@db.internal:3306/formgate',
      }),
    ).toBe('MySQL formgate@db.internal:3306/formgate');
    expect(
      describeDatabase({ type: 'mariadb', url: 'mariadb://root@127.0.0.1/fg' }),
    ).toBe('MariaDB root@127.0.0.1/fg');
    expect(describeDatabase({ type: 'sqlite', path: ':memory:' })).toBe(
      'SQLite in memory (nothing is kept after exit)',
    );
    expect(
      describeDatabase({ type: 'sqlite', path: '/var/lib/fg.sqlite' }, '/srv'),
    ).toBe('SQLite /var/lib/fg.sqlite');
  });
});
