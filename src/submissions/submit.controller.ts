import { Controller } from '@nestjs/common';

/** The public submit route: POST /api/submit/:formId. */
@Controller('api/submit')
export class SubmitController {}
