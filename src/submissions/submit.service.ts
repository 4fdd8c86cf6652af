import { Injectable } from '@nestjs/common';

/** Runs a public submission through the checks of DESIGN §5 and stores it. */
@Injectable()
export class SubmitService {}
