import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  Controller,
  Get,
  NotFoundException,
  Param,
  Res,
  UseFilters,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../auth/route-access.decorator.js';
import { WithDeadline } from '../common/http/deadline.interceptor.js';
import { DashboardExceptionFilter } from './dashboard-exception.filter.js';

/**
 * The installation's own guides (the `docs/` folder beside `src/` and `dist/`, in the
 * image too), so that the dashboard's mentions of them are links that open.
 */
const DOCS_DIR = [
  new URL('../../docs/', import.meta.url),
  new URL('../../../docs/', import.meta.url),
]
  .map((url) => fileURLToPath(url))
  .find((dir) => existsSync(join(dir, 'dashboard.md')));

/** A guide's file name: nothing that could reach outside the folder. */
const DOC_NAME = /^[a-z0-9-]{1,40}\.md$/;

/** The guides as the Markdown they are written in, shown by the browser as text. */
@ApiExcludeController()
@Public()
@WithDeadline()
@Controller('dashboard/docs')
@UseFilters(DashboardExceptionFilter)
export class DocsController {
  @Get(':name')
  async guide(@Res() reply: FastifyReply, @Param('name') name: string) {
    if (DOCS_DIR === undefined || !DOC_NAME.test(name)) {
      throw new NotFoundException('Page not found');
    }
    const text = await readFile(join(DOCS_DIR, name), 'utf8').catch(
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') {
          throw new NotFoundException('Page not found');
        }
        throw error;
      },
    );
    return reply
      .type('text/plain; charset=utf-8')
      .header('x-content-type-options', 'nosniff')
      .send(text);
  }
}
