import { Global, Module } from '@nestjs/common';
import { SearchIndexRepository } from './search-index.repository.js';
import { SearchIndexer } from './search-indexer.js';

/**
 * The full-text index's keeper (docs/inbox.md), in the server and in the worker process:
 * it indexes only where the worker runs (WORKER_ENABLED).
 */
@Global()
@Module({
  providers: [SearchIndexer, SearchIndexRepository],
  exports: [SearchIndexer],
})
export class SearchIndexModule {}
