// Runs before every test file. Unit specs build services without an application, so Nest's
// static Logger falls back to a console logger and would print their debug lines (the commit
// queue logs each batch) into `npm test`'s output. This console logger keeps warnings and
// errors only. It sets no global log levels: an application a test creates installs its own
// logger (pino) in its place, with the levels of its configuration.
import { ConsoleLogger, Logger } from '@nestjs/common';

Logger.overrideLogger(
  new ConsoleLogger({ logLevels: ['fatal', 'error', 'warn'] }),
);
