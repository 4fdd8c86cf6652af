import { Controller } from '@nestjs/common';

/** Key-protected submissions management: /api/v1/forms/:id/submissions… */
@Controller('api/v1/forms/:id/submissions')
export class SubmissionsController {}
