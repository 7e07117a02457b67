// Request validation: class-validator DTOs with whitelist + forbidNonWhitelisted, every
// failure turned into one catalogue error naming the parameter.

import { ValidationPipe, type ArgumentMetadata, type ValidationError } from '@nestjs/common';
import { ApiError } from '../errors';
import { memoizeValidationMetadata } from './validation-metadata-cache';

function firstError(
  errors: ValidationError[],
  path = '',
): { param: string; error: ValidationError } | undefined {
  for (const error of errors) {
    const param = path ? `${path}[${error.property}]` : error.property;
    if (error.constraints && Object.keys(error.constraints).length) return { param, error };
    const nested = firstError(error.children ?? [], param);
    if (nested) return nested;
  }
  return undefined;
}

/**
 * A value of the wrong type fails its range checks too ("1000" is neither an integer nor
 * <= 99999999999 as far as class-validator can tell): the type is what the client must fix,
 * so its message wins over whichever constraint class-validator happened to list first.
 */
const TYPE_CONSTRAINTS = [
  'isInt',
  'isNumber',
  'isString',
  'isBoolean',
  'isObject',
  'isArray',
  'isDateLike',
  'isEnum',
  'isIn',
];

function messageOf(constraints: Record<string, string>): string | undefined {
  const type = TYPE_CONSTRAINTS.find((name) => constraints[name]);
  return type ? constraints[type] : Object.values(constraints)[0];
}

export function validationErrorToApiError(errors: ValidationError[]): ApiError {
  const found = firstError(errors);
  if (!found) return new ApiError('parameter_invalid', 'The request is invalid.');
  const { param, error } = found;
  const constraints = error.constraints ?? {};
  if (constraints.whitelistValidation) {
    return new ApiError('parameter_unknown', `Received unknown parameter: ${param}`, param);
  }
  // Optional properties skip validation when absent, so an absent value with errors is a
  // required parameter that is missing.
  if (error.value === undefined)
    return new ApiError('parameter_missing', `Missing required param: ${param}.`, param);
  const message = messageOf(constraints) ?? `Invalid value for ${param}.`;
  if (constraints.isCurrency) return new ApiError('currency_unsupported', message, param);
  return new ApiError('parameter_invalid', message, param);
}

/** The one validation pipe every service installs globally. */
export class ApiValidationPipe extends ValidationPipe {
  constructor() {
    memoizeValidationMetadata();
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      forbidUnknownValues: true,
      validationError: { target: false, value: true },
      exceptionFactory: validationErrorToApiError,
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (
      metadata.type === 'body' &&
      metadata.metatype &&
      typeof metadata.metatype === 'function' &&
      metadata.metatype !== Object
    ) {
      // An empty body is `{}` (action endpoints are called that way); a JSON `null` is not an
      // object, and taking it as `{}` created objects with every field null.
      if (value === undefined) value = {};
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        throw new ApiError('parameter_invalid', 'The request body must be a JSON object.');
      }
      // class-transformer never copies these onto the DTO, so whitelisting could not see them:
      // refuse them by name like any other unknown parameter.
      for (const key of ['__proto__', 'constructor', 'prototype']) {
        if (Object.prototype.hasOwnProperty.call(value, key)) {
          throw new ApiError('parameter_unknown', `Received unknown parameter: ${key}`, key);
        }
      }
    }
    return super.transform(value, metadata);
  }
}
