import { DynamicModule, Global, Module } from '@nestjs/common';
import { SWEEP_SCHEDULE, SweepsService } from './sweeps.service.js';

/**
 * Makes SweepsService injectable everywhere, so a feature registers its sweep without
 * importing this module. The server and the worker process run the sweeps on their
 * schedule; a process that only needs the registry (an operator command) passes
 * `{ schedule: false }`.
 */
@Global()
@Module({})
export class SweepsModule {
  static forRoot(options: { schedule?: boolean } = {}): DynamicModule {
    return {
      module: SweepsModule,
      providers: [
        { provide: SWEEP_SCHEDULE, useValue: options.schedule ?? true },
        SweepsService,
      ],
      exports: [SweepsService],
    };
  }
}
