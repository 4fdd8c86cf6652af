// The metrics listener: `GET /metrics` on METRICS_HOST:METRICS_PORT, its own HTTP server,
// never the public port. In a server it starts once the public port listens (the app is
// ready); in a process without HTTP (`npm run worker`) at bootstrap. It closes first on
// shutdown.
import {
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { once } from 'node:events';
import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppConfig } from '../config/app-config.js';
import { Metrics } from './metrics.js';

export const METRICS_PATH = '/metrics';

@Injectable()
export class MetricsServer
  implements OnApplicationBootstrap, BeforeApplicationShutdown
{
  private readonly logger = new Logger('Metrics');
  private server: Server | undefined;
  private started: Promise<AddressInfo | undefined> | undefined;
  private startNow: (() => void) | undefined;
  private stopped = false;

  constructor(
    private readonly metrics: Metrics,
    private readonly config: AppConfig,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.telemetry.metricsPort === undefined) return;
    const publicServer = this.adapterHost.httpAdapter?.getHttpServer() as
      Server | undefined;
    this.started = new Promise((resolve) => {
      this.startNow = () => {
        this.startNow = undefined;
        resolve(this.listen());
      };
    });
    if (publicServer === undefined || publicServer.listening) this.startNow?.();
    else publicServer.once('listening', () => this.startNow?.());
  }

  /** Where the listener answers, once it does (undefined when off or it could not bind). */
  address(): Promise<AddressInfo | undefined> {
    return this.started ?? Promise.resolve(undefined);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.startNow = undefined;
    const server = this.server;
    if (server === undefined) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async listen(): Promise<AddressInfo | undefined> {
    if (this.stopped) return undefined;
    const { metricsPort, metricsHost } = this.config.telemetry;
    const server = createServer(
      (request, response) => void this.answer(request, response),
    );
    server.headersTimeout = 5000;
    server.requestTimeout = 10_000;
    try {
      server.listen(metricsPort, metricsHost);
      await once(server, 'listening');
    } catch (error) {
      // The service itself goes on: a scrape that fails is how the operator hears of it.
      this.logger.error(
        `Metrics listener could not start on ${metricsHost}:${metricsPort}: ${(error as Error).message}`,
      );
      return undefined;
    }
    this.server = server;
    const address = server.address() as AddressInfo;
    this.logger.log(
      `Metrics at http://${metricsHost}:${address.port}${METRICS_PATH}`,
    );
    return address;
  }

  private async answer(
    request: IncomingMessage,
    response: ServerResponse,
  ): Promise<void> {
    const path = (request.url ?? '').split('?')[0];
    if (path !== METRICS_PATH) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      response.end('Not found: metrics are at /metrics\n');
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, {
        allow: 'GET, HEAD',
        'content-type': 'text/plain; charset=utf-8',
      });
      response.end('Method not allowed\n');
      return;
    }
    try {
      const text = await this.metrics.scrape();
      response.writeHead(200, {
        'content-type': this.metrics.registry.contentType,
        'cache-control': 'no-store',
      });
      response.end(request.method === 'HEAD' ? undefined : text);
    } catch (error) {
      this.logger.error(
        `Metrics could not be collected: ${(error as Error).message}`,
        (error as Error).stack,
      );
      response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      response.end('Metrics could not be collected\n');
    }
  }
}
