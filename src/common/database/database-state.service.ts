import {
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  refuseUnknownMigrations,
  UnknownMigrationsError,
} from './unknown-migrations.js';

const RETRY_DELAY_MS = 2000;
const PING_TIMEOUT_MS = 2000;

/**
 * Connects the DataSource in the background and keeps retrying, so a process started
 * while the database is down stays up (not ready) and connects when it can.
 */
@Injectable()
export class DatabaseStateService
  implements OnApplicationBootstrap, OnApplicationShutdown
{
  private readonly logger = new Logger('Database');
  private connecting: Promise<void> | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private stopped = false;
  /**
   * Set once initialize() has finished, migrations included: TypeORM marks the DataSource
   * initialized before it runs them, when the tables may not exist yet.
   */
  private ready = false;
  /** Set when the database was migrated by a newer release: never retried. */
  private refused: UnknownMigrationsError | undefined;
  /** Whether to apply pending migrations once connected (MIGRATIONS_RUN). */
  private readonly migrate: boolean;

  constructor(private readonly dataSource: DataSource) {
    // The migrations run here, after the check that the database is not newer than this
    // build, rather than inside initialize() before anything could look.
    this.migrate = dataSource.options.migrationsRun === true;
    if (this.migrate) dataSource.setOptions({ migrationsRun: false });
  }

  onApplicationBootstrap(): void {
    this.connecting = this.connect();
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    clearTimeout(this.retryTimer);
  }

  /** Resolves once connected (and migrated); used by tests and by `/health/ready`. */
  async whenConnected(): Promise<void> {
    while (!this.isConnected) {
      if (this.refused) throw this.refused;
      if (this.stopped) throw new Error('Database connection stopped');
      await (this.connecting ?? this.connect());
      if (!this.isConnected) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  }

  /** Connected and migrated. */
  get isConnected(): boolean {
    return this.ready && this.dataSource.isInitialized;
  }

  /** true when a trivial query answers within the deadline. */
  async ping(): Promise<boolean> {
    if (!this.isConnected) return false;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), PING_TIMEOUT_MS);
    });
    const query = this.dataSource.query('SELECT 1').then(
      () => true,
      () => false,
    );
    try {
      return await Promise.race([query, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async connect(): Promise<void> {
    if (this.stopped || this.refused || this.dataSource.isInitialized) return;
    try {
      await this.dataSource.initialize();
      await this.checkAndMigrate();
      this.ready = true;
      this.logger.log(`Connected to ${this.dataSource.options.type}`);
    } catch (error) {
      if (error instanceof UnknownMigrationsError) {
        this.refused = error;
        this.logger.error(error.message);
        return;
      }
      const reason = error instanceof Error ? error.message : String(error);
      this.logger.warn(
        `Database not reachable (${reason}); retrying in ${RETRY_DELAY_MS} ms`,
      );
      await new Promise<void>((resolve) => {
        this.retryTimer = setTimeout(resolve, RETRY_DELAY_MS);
      });
      this.connecting = this.connect();
      return this.connecting;
    }
  }

  /** Refuses a database a newer release migrated, then applies this build's pending ones. */
  private async checkAndMigrate(): Promise<void> {
    try {
      await refuseUnknownMigrations(this.dataSource);
      if (this.migrate) {
        await this.dataSource.runMigrations({
          transaction: this.dataSource.options.migrationsTransactionMode,
        });
      }
    } catch (error) {
      // As initialize() does when its own migrations fail: closed, so a retry starts afresh.
      await this.dataSource.destroy().catch(() => undefined);
      throw error;
    }
  }
}
