import { createLogger } from './logger.js';
import {
  foldRequestLine,
  logDestination,
  usePrettyLogs,
} from './log-destination.js';

function capture(isTTY: boolean) {
  const lines: string[] = [];
  return {
    lines,
    output: { isTTY, write: (text: string) => lines.push(text) },
  };
}

describe('usePrettyLogs', () => {
  it('reads a terminal as readable lines and anything else as JSON, unless told', () => {
    expect(usePrettyLogs('auto', { isTTY: true, write: () => {} })).toBe(true);
    expect(usePrettyLogs('auto', { write: () => {} })).toBe(false);
    expect(usePrettyLogs('json', { isTTY: true, write: () => {} })).toBe(false);
    expect(usePrettyLogs('pretty', { write: () => {} })).toBe(true);
  });
});

describe('logDestination', () => {
  it('keeps pino’s JSON lines when stdout is not a terminal', async () => {
    await expect(logDestination('auto', capture(false).output)).resolves.toBe(
      undefined,
    );
  });

  it('writes one readable line per entry, redaction applied first', async () => {
    const { lines, output } = capture(false);
    const destination = await logDestination('pretty', output);
    const logger = createLogger('info', destination);
    logger.info({ context: 'Database' }, 'Connected to better-sqlite3');
    logger.info(
      {
        reqId: 'req-1',
        req: {
          method: 'GET',
          url: '/api/v1/forms?apiKey=fgk_abcdefghijklmnop',
        },
        res: { statusCode: 403 },
        responseTime: 4.2,
      },
      'request completed',
    );
    logger.info('Server listening at http://127.0.0.1:3000');
    const text = lines.join('');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^\[\d\d:\d\d:\d\d\] INFO: \[Database\] Connected to better-sqlite3\n$/,
    );
    expect(lines[1]).toMatch(
      /INFO: GET \/api\/v1\/forms\?apiKey=\[REDACTED\] → 403 \(4 ms\)\n$/,
    );
    expect(text).not.toContain('fgk_');
    expect(text).not.toContain('{');
  });
});

describe('foldRequestLine', () => {
  it('names a request without its route as "request"', () => {
    expect(
      foldRequestLine({ msg: 'request completed', res: { statusCode: 200 } })
        ?.msg,
    ).toBe('request → 200');
  });

  it('leaves other lines as they are and drops "Server listening at"', () => {
    const entry = { msg: 'Connected', context: 'Database' };
    expect(foldRequestLine(entry)).toBe(entry);
    expect(
      foldRequestLine({ msg: 'Server listening at http://127.0.0.1:3000' }),
    ).toBeUndefined();
  });
});
