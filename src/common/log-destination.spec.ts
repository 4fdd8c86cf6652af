import { createLogger } from './logger.js';
import {
  foldRequestLines,
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
      },
      'incoming request',
    );
    logger.info(
      { reqId: 'req-1', res: { statusCode: 403 }, responseTime: 4.2 },
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

describe('foldRequestLines', () => {
  it('forgets waiting requests beyond a bound, so a stuck request leaks nothing', () => {
    const pending = new Map<string, string>();
    for (let i = 0; i < 1500; i++) {
      foldRequestLines(
        {
          msg: 'incoming request',
          reqId: `r${i}`,
          req: { method: 'GET', url: '/' },
        },
        pending,
      );
    }
    expect(pending.size).toBeLessThanOrEqual(1000);
    expect(
      foldRequestLines(
        {
          msg: 'request completed',
          reqId: 'unknown',
          res: { statusCode: 200 },
        },
        pending,
      )?.msg,
    ).toBe('request → 200');
  });
});
