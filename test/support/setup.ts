// Runs before every test file. Unit specs build services without an application, so Nest's
// static Logger falls back to its console logger and would print their debug lines (the
// commit queue logs each batch) into `npm test`'s output. Warnings and errors still show;
// an application a test creates installs its own logger (pino) as usual.
import { Logger } from '@nestjs/common';

Logger.overrideLogger(['fatal', 'error', 'warn']);
