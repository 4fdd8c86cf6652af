// Where log lines go. JSON lines (one object per line) for machines: containers, files,
// log shippers. On a terminal, readable one-line entries instead, through pino-pretty,
// which is only loaded then. Redaction happens in the logger before a line gets here.
import type { DestinationStream } from 'pino';

/** `auto`: readable lines on a terminal, JSON lines otherwise. */
export const LOG_FORMATS = ['auto', 'json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

interface Output {
  write(text: string): unknown;
  isTTY?: boolean;
}

interface LogEntry {
  msg?: string;
  context?: string;
  reqId?: string;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
  [key: string]: unknown;
}

/** Keys shown in the message itself (or dropped) rather than as an object below it. */
const FOLDED_KEYS = 'pid,hostname,service,context,reqId,req,res,responseTime';

export function usePrettyLogs(format: LogFormat, output: Output): boolean {
  if (format === 'auto') return output.isTTY === true;
  return format === 'pretty';
}

/** Undefined means pino's default: JSON lines on stdout. */
export async function logDestination(
  format: LogFormat,
  output: Output = process.stdout,
): Promise<DestinationStream | undefined> {
  if (!usePrettyLogs(format, output)) return undefined;
  const { prettyFactory, isColorSupported } = (await import('pino-pretty'))
    .default;
  const pretty = prettyFactory({
    colorize: output.isTTY === true && isColorSupported,
    translateTime: 'SYS:HH:MM:ss',
    ignore: FOLDED_KEYS,
    messageFormat: (log: LogEntry) => messageOf(log),
  });
  return {
    write(line: string) {
      let entry: LogEntry;
      try {
        entry = JSON.parse(line) as LogEntry;
      } catch {
        output.write(line);
        return;
      }
      const folded = foldRequestLine(entry);
      if (folded) output.write(pretty(folded));
    },
  };
}

function messageOf(log: LogEntry): string {
  const text = typeof log.msg === 'string' ? log.msg : '';
  return log.context ? `[${log.context}] ${text}` : text;
}

/**
 * Every request is logged once, when it completes, with the request in the line. On a
 * terminal that becomes "GET /dashboard/forms → 200 (4 ms)". Fastify's "Server listening at"
 * lines are dropped: the ready line says where to go.
 */
export function foldRequestLine(entry: LogEntry): LogEntry | undefined {
  if (
    typeof entry.msg === 'string' &&
    entry.msg.startsWith('Server listening at')
  ) {
    return undefined;
  }
  if (entry.msg === 'request completed') {
    const route = entry.req
      ? `${entry.req.method} ${entry.req.url}`
      : 'request';
    const ms =
      typeof entry.responseTime === 'number'
        ? ` (${Math.round(entry.responseTime)} ms)`
        : '';
    return { ...entry, msg: `${route} → ${entry.res?.statusCode ?? '?'}${ms}` };
  }
  return entry;
}
