import {
  Global,
  Inject,
  Injectable,
  Module,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { NO_TRACING, TRACING, type Tracing } from './tracing.js';

/** Longest shutdown waits for the last spans to reach a collector. */
const SHUTDOWN_MS = 3000;

/** Sends the last spans when the app stops (after HTTP closed and the queue drained). */
@Injectable()
class TracingShutdownService implements OnApplicationShutdown {
  constructor(@Inject(TRACING) private readonly tracing: Tracing) {}

  async onApplicationShutdown(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.tracing.shutdown().catch(() => undefined),
      new Promise((resolve) => (timer = setTimeout(resolve, SHUTDOWN_MS))),
    ]);
    clearTimeout(timer);
  }
}

/**
 * Provides TRACING everywhere: NO_TRACING unless OTEL_EXPORTER_OTLP_ENDPOINT is set, and
 * only then is OpenTelemetry loaded (a boot without it loads none of its packages).
 */
@Global()
@Module({
  providers: [
    {
      provide: TRACING,
      inject: [AppConfig],
      useFactory: async (config: AppConfig): Promise<Tracing> => {
        const endpoint = config.telemetry.otlpEndpoint;
        if (endpoint === undefined) return NO_TRACING;
        const { OtelTracing } = await import('./otel-tracing.js');
        return new OtelTracing(endpoint);
      },
    },
    TracingShutdownService,
  ],
  exports: [TRACING],
})
export class TracingModule {}
