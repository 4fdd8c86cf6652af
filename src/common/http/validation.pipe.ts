import {
  ArgumentMetadata,
  Injectable,
  ValidationError,
  ValidationPipe,
} from '@nestjs/common';
import {
  ValidationFailedException,
  type ErrorIssue,
} from '../errors/errors.js';

/** Deeper than this, a body is refused before class-transformer walks it recursively. */
export const MAX_BODY_DEPTH = 16;

function depthOf(value: unknown, limit: number): number {
  // Iterative, so a hostile body nested thousands of levels cannot overflow the stack.
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (depth > max) max = depth;
    if (max > limit) return max;
    if (current !== null && typeof current === 'object') {
      for (const child of Object.values(current)) {
        stack.push([child, depth + 1]);
      }
    }
  }
  return max;
}

/** One readable message per problem, and, parallel to it, what each is about. */
export interface FlatValidationErrors {
  messages: string[];
  /** The property's path (`fields.2.id`), the constraint, and the message without the path. */
  issues: ErrorIssue[];
}

/** "each entry of $property must …": a message about every entry of a list. */
const EACH_ENTRY = 'each entry of ';
/** "$property.3 must …": a message about one entry of a list. */
const ENTRY_MESSAGE = /^\.(\d{1,9}) /;

/**
 * What a message is about. class-validator's messages start with the property ($property
 * must …, $property.<i> … for an entry of a list, each entry of $property … for all of
 * them): a page that names the field its own way shows the rest.
 */
function issueOf(
  path: string,
  property: string,
  code: string,
  message: string,
): ErrorIssue {
  const issue: ErrorIssue = { field: path, code };
  if (message.startsWith(`${EACH_ENTRY}${property} `)) {
    issue.entries = true;
    issue.detail = message.slice(EACH_ENTRY.length + property.length + 1);
    return issue;
  }
  if (!message.startsWith(property)) return issue;
  const rest = message.slice(property.length);
  const entry = ENTRY_MESSAGE.exec(rest);
  if (rest.startsWith(' ')) issue.detail = rest.slice(1);
  else if (entry) {
    issue.field = `${path}.${entry[1]}`;
    issue.detail = rest.slice(entry[0].length);
  }
  return issue;
}

/** Flattens class-validator's tree into one readable message per problem. */
export function flattenValidationErrors(
  errors: ValidationError[],
  parent = '',
  into: FlatValidationErrors = { messages: [], issues: [] },
): FlatValidationErrors {
  for (const error of errors) {
    const path = parent ? `${parent}.${error.property}` : error.property;
    for (const [code, message] of Object.entries(error.constraints ?? {})) {
      into.messages.push(message.replace(error.property, path));
      into.issues.push(issueOf(path, error.property, code, message));
    }
    if (error.children?.length) {
      flattenValidationErrors(error.children, path, into);
    }
  }
  return into;
}

const BODY_MAY_BE_ABSENT = Symbol('formgate:body-may-be-absent');

/**
 * Marks a body DTO whose properties are all optional: a request sent without any body
 * is then read as `{}` rather than refused.
 */
export function BodyMayBeAbsent(): ClassDecorator {
  return (target) => Reflect.defineMetadata(BODY_MAY_BE_ABSENT, true, target);
}

/** whitelist + forbidNonWhitelisted + transform, answering `{error, errors}`. */
@Injectable()
export class AppValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      forbidUnknownValues: true,
      stopAtFirstError: true,
      validationError: { target: false, value: false },
      exceptionFactory: (errors) => {
        const { messages, issues } = flattenValidationErrors(errors);
        return new ValidationFailedException(messages, issues);
      },
    });
  }

  override async transform(
    value: unknown,
    metadata: ArgumentMetadata,
  ): Promise<unknown> {
    // Only bodies bound to a DTO class: raw bodies (the public submit route) are checked by
    // their own handler, after its 404 for an unknown form.
    if (metadata.type === 'body' && this.toValidate(metadata)) {
      if (
        value === undefined &&
        metadata.metatype &&
        Reflect.getMetadata(BODY_MAY_BE_ABSENT, metadata.metatype) === true
      ) {
        value = {};
      }
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        throw new ValidationFailedException(['body must be a JSON object']);
      }
      if (depthOf(value, MAX_BODY_DEPTH) > MAX_BODY_DEPTH) {
        throw new ValidationFailedException([
          `body is nested deeper than ${MAX_BODY_DEPTH} levels`,
        ]);
      }
    }
    return super.transform(value, metadata);
  }
}
