// Rules of a form's field configuration that class-validator's built-in decorators cannot
// express: the field id format (with its own message for the reserved leading `_`), ids
// unique within a form, and `options` tied to the `select` type.
import {
  registerDecorator,
  ValidateBy,
  ValidateIf,
  ValidatorConstraint,
  type ValidationArguments,
  type ValidationOptions,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { isEmailAddress } from '../../common/values/email-address.js';
import { FIELD_TYPES } from '../form.entity.js';
import { CAPTCHA_TOKEN_FIELD_NAMES } from '../settings/spam-settings.js';

/** Submitted keys must equal a field id exactly; `_…` keys are control keys (`_honeypot`). */
export const FIELD_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
export const FIELD_ID_MAX_LENGTH = 64;

/**
 * Validates only when the property is present. Unlike `@IsOptional()` a `null` is still
 * checked (and refused by the type check), so `{"name": null}` can never reach the database.
 */
export function Optional(options?: ValidationOptions): PropertyDecorator {
  return ValidateIf((_object, value) => value !== undefined, options);
}

/**
 * The property must be sent. Unlike `@IsDefined()` a `null` passes here, so the type check
 * that follows answers "must be a string" rather than the misleading "is required".
 */
export function Required(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isPresent',
      validator: {
        validate: (value: unknown) => value !== undefined,
        defaultMessage: () => '$property is required',
      },
    },
    options,
  );
}

@ValidatorConstraint({ name: 'fieldId' })
class FieldIdConstraint implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return (
      typeof value === 'string' &&
      FIELD_ID_PATTERN.test(value) &&
      !CAPTCHA_TOKEN_FIELD_NAMES.has(value)
    );
  }

  defaultMessage(args: ValidationArguments): string {
    const value: unknown = args.value;
    if (typeof value !== 'string') return '$property must be a string';
    if (CAPTCHA_TOKEN_FIELD_NAMES.has(value)) {
      return `$property must not be "${value}": that name is reserved for a CAPTCHA widget's answer`;
    }
    if (value.startsWith('_')) {
      return '$property must not start with "_": that prefix is reserved for control keys such as _honeypot';
    }
    if (value.length === 0 || value.length > FIELD_ID_MAX_LENGTH) {
      return `$property must be 1 to ${FIELD_ID_MAX_LENGTH} characters long`;
    }
    return '$property must start with a letter or digit and contain only letters, digits, "_", "." and "-"';
  }
}

/** A field id: `^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`, with a specific message for each way to miss it. */
export function IsFieldId(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      validator: FieldIdConstraint,
    });
}

@ValidatorConstraint({ name: 'uniqueFieldIds' })
class UniqueFieldIdsConstraint implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return duplicateFieldIds(value).length === 0;
  }

  defaultMessage(args: ValidationArguments): string {
    const duplicates = duplicateFieldIds(args.value).map((id) => `"${id}"`);
    return `$property must have unique ids, but ${duplicates.join(', ')} ${duplicates.length === 1 ? 'appears' : 'appear'} more than once`;
  }
}

/** Ids that occur more than once (exact comparison, as submitted keys are matched exactly). */
export function duplicateFieldIds(fields: unknown): string[] {
  if (!Array.isArray(fields)) return [];
  const seen = new Set<string>();
  const duplicates = new Set<string>();
  for (const field of fields) {
    // Runs before the entries are validated one by one, so anything may be here.
    const id: unknown =
      typeof field === 'object' && field !== null
        ? (field as { id?: unknown }).id
        : undefined;
    if (typeof id !== 'string') continue;
    if (seen.has(id)) duplicates.add(id);
    seen.add(id);
  }
  return [...duplicates];
}

export function UniqueFieldIds(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      validator: UniqueFieldIdsConstraint,
    });
}

const isKnownType = (type: unknown): boolean =>
  (FIELD_TYPES as readonly unknown[]).includes(type);

/**
 * `options` is checked when the field is a `select` (where it is required) or when it is
 * sent with another known type (where it is refused). With an unknown type only the type
 * is reported: one message per problem.
 */
export const ValidateOptionsIfRelevant = (): PropertyDecorator =>
  ValidateIf(
    (field: { type?: unknown; options?: unknown }) =>
      field.type === 'select' ||
      (field.options !== undefined && isKnownType(field.type)),
  );

@ValidatorConstraint({ name: 'optionsOnlyForSelect' })
class OptionsOnlyForSelectConstraint implements ValidatorConstraintInterface {
  validate(_value: unknown, args: ValidationArguments): boolean {
    return (args.object as { type?: unknown }).type === 'select';
  }

  defaultMessage(): string {
    return '$property is only allowed on select fields';
  }
}

export function OptionsOnlyForSelect(
  options?: ValidationOptions,
): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      validator: OptionsOnlyForSelectConstraint,
    });
}

/** The first problem of a notification address list, or null when it has none. */
export function notifyEmailsProblem(value: unknown): string | null {
  if (!Array.isArray(value)) return null;
  const seen = new Set<unknown>();
  for (const [index, entry] of value.entries()) {
    if (typeof entry !== 'string') continue;
    if (!isEmailAddress(entry)) {
      const shown = entry.length > 64 ? `${entry.slice(0, 64)}…` : entry;
      return `$property.${index} must be a valid email address (got ${JSON.stringify(shown)})`;
    }
    if (seen.has(entry)) {
      return `$property must list each address once, but "${entry}" appears more than once`;
    }
    seen.add(entry);
  }
  return null;
}

@ValidatorConstraint({ name: 'notifyEmails' })
class NotifyEmailsConstraint implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return notifyEmailsProblem(value) === null;
  }

  defaultMessage(args: ValidationArguments): string {
    return notifyEmailsProblem(args.value) ?? '$property is not valid';
  }
}

/** Valid addresses (compared lower-cased, as stored), each listed once. */
export function NotifyEmails(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      validator: NotifyEmailsConstraint,
    });
}

@ValidatorConstraint({ name: 'onlyForFileFields' })
class OnlyForFileFieldsConstraint implements ValidatorConstraintInterface {
  validate(_value: unknown, args: ValidationArguments): boolean {
    return (args.object as { type?: unknown }).type === 'file';
  }

  defaultMessage(): string {
    return '$property is only allowed on file fields';
  }
}

/** `maxSize`, `accept` and `maxFiles` belong to `file` fields alone. */
export function OnlyForFileFields(
  options?: ValidationOptions,
): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      validator: OnlyForFileFieldsConstraint,
    });
}

/** An `accept` entry: a MIME type (`image/png`), a family (`image/*`) or an extension (`.pdf`). */
export const ACCEPT_ENTRY =
  /^(?:\.[A-Za-z0-9]{1,16}|[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,63}\/(?:\*|[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,63}))$/;
