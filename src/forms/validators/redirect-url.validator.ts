// A form's redirectUrl: an absolute http(s) URL without user info (see redirect-url.ts).
import {
  registerDecorator,
  ValidatorConstraint,
  type ValidationArguments,
  type ValidationOptions,
  type ValidatorConstraintInterface,
} from 'class-validator';
import {
  hasUnsafeCharacter,
  MAX_REDIRECT_URL_LENGTH,
  parseAbsoluteHttpUrl,
} from '../settings/redirect-url.js';

@ValidatorConstraint({ name: 'redirectUrl' })
class RedirectUrlConstraint implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return (
      typeof value === 'string' &&
      value.length <= MAX_REDIRECT_URL_LENGTH &&
      parseAbsoluteHttpUrl(value) !== null
    );
  }

  defaultMessage(args: ValidationArguments): string {
    const value: unknown = args.value;
    if (typeof value !== 'string') return '$property must be a string or null';
    if (value.length > MAX_REDIRECT_URL_LENGTH) {
      return `$property must be at most ${MAX_REDIRECT_URL_LENGTH} characters long`;
    }
    if (hasUnsafeCharacter(value)) {
      return '$property must not contain spaces, control characters or backslashes';
    }
    if (/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(value)) {
      return '$property must not contain user info (user:password@)';
    }
    return '$property must be an absolute URL starting with http:// or https://';
  }
}

export function IsRedirectUrl(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      validator: RedirectUrlConstraint,
    });
}
