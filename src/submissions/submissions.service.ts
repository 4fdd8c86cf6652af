import { Injectable } from '@nestjs/common';

/** Listing, reading, deleting and exporting a form's submissions. */
@Injectable()
export class SubmissionsService {}
