import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withEnvFile } from './env-file.js';

describe('withEnvFile', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'formgate-env-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('adds the variables of the file, and the real environment wins', () => {
    const file = join(dir, '.env');
    writeFileSync(
      file,
      [
        '# a comment',
        'PORT=4000',
        'LOG_LEVEL=debug',
        'TRUST_PROXY="10.0.0.0/8,192.168.1.10"',
        'export SIGNUP_ENABLED=false',
        '',
      ].join('\n'),
    );
    const result = withEnvFile({ PORT: '5000', HOME: '/root' }, file);
    expect(result.env).toEqual({
      PORT: '5000',
      HOME: '/root',
      LOG_LEVEL: 'debug',
      TRUST_PROXY: '10.0.0.0/8,192.168.1.10',
      SIGNUP_ENABLED: 'false',
    });
    expect(result.file).toBe(file);
    expect(result.fromFile.sort()).toEqual([
      'LOG_LEVEL',
      'SIGNUP_ENABLED',
      'TRUST_PROXY',
    ]);
  });

  it('keeps a variable that is set but empty in the environment', () => {
    const file = join(dir, '.env');
    writeFileSync(file, 'REDIS_URL=redis://127.0.0.1:6379\n');
    const result = withEnvFile({ REDIS_URL: '' }, file);
    expect(result.env.REDIS_URL).toBe('');
    expect(result.fromFile).toEqual([]);
  });

  it('changes nothing when there is no file', () => {
    const env = { PORT: '5000' };
    const result = withEnvFile(env, join(dir, '.env'));
    expect(result).toEqual({ env, fromFile: [] });
    expect(result.file).toBeUndefined();
  });

  it('reports a .env that cannot be read as a configuration error', () => {
    expect(() => withEnvFile({}, dir)).toThrow(
      /Invalid configuration: \.env cannot be read/,
    );
  });
});
