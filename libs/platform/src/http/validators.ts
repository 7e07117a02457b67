// Validators shared by every service's DTOs.

import { registerDecorator } from 'class-validator';

/** metadata: string -> string, at most 50 keys, key <= 40 chars, value <= 500 chars. */
export function IsMetadata(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isMetadata',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: 'metadata must map at most 50 keys (<= 40 chars) to string values (<= 500 chars)' },
      validator: {
        validate(value: unknown) {
          if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
          const entries = Object.entries(value);
          return (
            entries.length <= 50 &&
            entries.every(
              ([k, v]) => k.length > 0 && k.length <= 40 && typeof v === 'string' && v.length <= 500,
            )
          );
        },
      },
    });
}
