// nginx from the distribution's package (`apt-get install nginx`; .ci/run installs it), run
// in front of several Formgate instances on loopback as an operator would: its own
// configuration in a temporary folder, in the foreground, on a free port. The scale-out
// tests and the scale benchmark both use it.
import { spawn, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './process.js';

export const NGINX = '/usr/sbin/nginx';

/** Says what is missing when nginx is not installed. */
export function assertNginxInstalled(): void {
  if (!existsSync(NGINX)) {
    throw new Error(
      `${NGINX} is missing: install the distribution's package (apt-get install nginx; .ci/run does)`,
    );
  }
}

/** Response header naming the instance (host:port) that answered, or every one tried. */
export const UPSTREAM_HEADER = 'x-upstream';

/**
 * The proxy's configuration, as an operator would write it for several instances:
 * - Round robin over the instances; an instance that refuses a connection is tried no more
 *   for 10 s (passive health: max_fails=1 fail_timeout=10s), and the request goes on to the
 *   next one (proxy_next_upstream error timeout). nginx passes a POST to the next instance
 *   only when nothing of it was sent to the first, so a submission is never made twice.
 * - No keep-alive towards the instances (nginx's default: HTTP/1.0, a connection per
 *   request), so a request sent after an instance died never meets a dead connection: it
 *   finds the port closed and goes to another instance.
 * - X-Forwarded-For is the address of the connection, replacing whatever the client sent:
 *   the instances trust this proxy (TRUST_PROXY) and so see the real client address.
 */
export function nginxConfig(
  dir: string,
  port: number,
  upstreams: string[],
): string {
  const servers = upstreams
    .map((address) => `    server ${address} max_fails=1 fail_timeout=10s;`)
    .join('\n');
  return `worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log stderr notice;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  client_max_body_size 30m;
  upstream formgate {
${servers}
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://formgate;
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_next_upstream error timeout;
      proxy_connect_timeout 2s;
      proxy_read_timeout 30s;
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`;
}

export interface ReverseProxy {
  url: string;
  child: ChildProcess;
  /** What nginx logged (notices and errors). */
  log: () => string;
  /** Resolves once nginx has logged a line matching `pattern`. */
  logged: (pattern: RegExp, timeoutMs?: number) => Promise<void>;
  stop: () => Promise<void>;
}

/**
 * Starts nginx in front of `upstreams` (host:port each), on `port` (a free one by default);
 * resolves once it listens.
 */
export async function startNginx(
  upstreams: string[],
  port?: number,
): Promise<ReverseProxy> {
  assertNginxInstalled();
  const dir = mkdtempSync(join(tmpdir(), 'formgate-nginx-'));
  // nginx's worker runs as an unprivileged user when started by root: it must reach its
  // temporary folders in here.
  chmodSync(dir, 0o755);
  port ??= await freePort();
  const config = join(dir, 'nginx.conf');
  writeFileSync(config, nginxConfig(dir, port, upstreams));
  const child = spawn(NGINX, ['-e', 'stderr', '-p', dir, '-c', config], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  const waiters = new Set<() => void>();
  child.stderr!.on('data', (chunk: Buffer) => {
    log += chunk.toString();
    for (const waiter of waiters) waiter();
  });
  const exited = new Promise<void>((resolve) =>
    child.on('exit', () => resolve()),
  );
  const logged = (pattern: RegExp, timeoutMs = 10_000) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`nginx did not log ${pattern}: ${log.slice(-2000)}`));
      }, timeoutMs);
      const check = () => {
        if (pattern.test(log)) {
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        } else if (child.exitCode !== null) {
          clearTimeout(timer);
          waiters.delete(check);
          reject(new Error(`nginx exited with ${child.exitCode}: ${log}`));
        }
      };
      waiters.add(check);
      child.once('exit', check);
      check();
    });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
    }
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // The master binds the port before it starts its worker: ready once it says so.
    await logged(/start worker process \d+/);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    log: () => log,
    logged,
    stop,
  };
}
