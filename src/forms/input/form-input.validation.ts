// The management API's form validation as a function, for callers that are not a
// controller (the dashboard's form editor). It runs the very pipe the API runs, so both
// paths accept the same input and word every message the same way.
import { AppValidationPipe } from '../../common/http/validation.pipe.js';
import {
  ValidationFailedException,
  type ErrorIssue,
} from '../../common/errors/errors.js';
import { CreateFormDto } from '../dto/create-form.dto.js';
import { PatchFormDto } from '../dto/patch-form.dto.js';
import { UpdateFormDto } from '../dto/update-form.dto.js';

export type FormInputMode = 'create' | 'replace' | 'patch';

export interface FormInputByMode {
  create: CreateFormDto;
  replace: UpdateFormDto;
  patch: PatchFormDto;
}

const DTO_BY_MODE = {
  create: CreateFormDto,
  replace: UpdateFormDto,
  patch: PatchFormDto,
} as const;

export interface FormInputResult<T> {
  /** The validated, transformed DTO; set only when `errors` is empty. */
  value?: T;
  errors: string[];
  /** Parallel to `errors`: the property each is about (ErrorIssue), when known. */
  issues?: readonly ErrorIssue[];
}

const pipe = new AppValidationPipe();

/** Validates a plain object as the body of `POST` (create), `PUT` (replace) or `PATCH`. */
export async function validateFormInput<M extends FormInputMode>(
  plain: unknown,
  mode: M,
): Promise<FormInputResult<FormInputByMode[M]>> {
  try {
    const value = (await pipe.transform(plain, {
      type: 'body',
      metatype: DTO_BY_MODE[mode],
      data: undefined,
    })) as FormInputByMode[M];
    return { value, errors: [] };
  } catch (error) {
    if (error instanceof ValidationFailedException) {
      return { errors: error.errors, issues: error.issues };
    }
    throw error;
  }
}
