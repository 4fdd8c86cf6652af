// Structured JSON logs (pino) shared by Fastify's request log and Nest's own logger.
// Secrets never reach a log line: API keys (header, query, anywhere in a line), cookies,
// passwords.
import type { LoggerService } from '@nestjs/common';
import pino, { type DestinationStream, type Logger } from 'pino';
import { REDACTED, redactKeys, redactUrl } from './redaction.js';

export { REDACTED, redactKeys, redactUrl } from './redaction.js';

export function createLogger(
  level: string,
  destination?: DestinationStream,
): Logger {
  return pino(
    {
      level,
      base: { service: 'formgate' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: {
        paths: [
          'req.headers["x-api-key"]',
          'req.headers.cookie',
          'req.headers.authorization',
          'res.headers["set-cookie"]',
          'password',
          '*.password',
          'apiKey',
          '*.apiKey',
        ],
        censor: REDACTED,
      },
      // The last line of defence: a key in a message, an error or a header we did not
      // think of is still replaced before the line is written.
      hooks: { streamWrite: redactKeys },
      serializers: {
        req(req: { method?: string; url?: string; ip?: string; id?: string }) {
          return {
            id: req.id,
            method: req.method,
            url: redactUrl(req.url ?? ''),
            remoteAddress: req.ip,
          };
        },
        err: pino.stdSerializers.err,
      },
    },
    destination,
  );
}

/**
 * Nest announces every module and route it sets up (~70 lines at each start): detail for
 * LOG_LEVEL=debug, not news. The ready line says what matters.
 */
const BOOT_CONTEXTS = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
]);

/** Nest's LoggerService on top of the same pino instance. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string): void {
    const level = context && BOOT_CONTEXTS.has(context) ? 'debug' : 'info';
    this.write(level, message, context);
  }
  error(message: unknown, stackOrContext?: string, context?: string): void {
    const stack = context === undefined ? undefined : stackOrContext;
    const ctx = context ?? stackOrContext;
    if (message instanceof Error) {
      this.logger.error({ context: ctx, err: message }, message.message);
    } else {
      this.logger.error({ context: ctx, stack }, this.text(message));
    }
  }
  warn(message: unknown, context?: string): void {
    this.write('warn', message, context);
  }
  debug(message: unknown, context?: string): void {
    this.write('debug', message, context);
  }
  verbose(message: unknown, context?: string): void {
    this.write('trace', message, context);
  }
  fatal(message: unknown, context?: string): void {
    this.write('fatal', message, context);
  }

  private write(level: pino.Level, message: unknown, context?: string): void {
    this.logger[level]({ context }, this.text(message));
  }
  private text(message: unknown): string {
    return typeof message === 'string' ? message : JSON.stringify(message);
  }
}
