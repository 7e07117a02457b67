// Validators shared by every service's DTOs.

import { Transform } from 'class-transformer';
import { registerDecorator, ValidateIf } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { normalizeCurrency } from '../money';

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
          // Characters are code points, as JSON Schema's maxLength counts them (and
          // class-validator's MaxLength): '😀' is one, though it is two UTF-16 units in
          // String.length (Schemathesis: 40 emoji in a key were refused).
          const chars = (text: string) => [...text].length;
          return (
            entries.length <= 50 &&
            entries.every(
              ([k, v]) => k.length > 0 && chars(k) <= 40 && typeof v === 'string' && chars(v) <= 500,
            )
          );
        },
      },
    });
}

/**
 * An ISO 4217 currency the platform supports, any case on input (normalise it with
 * `@Transform(({ value }) => normalizeCurrency(value) ?? value)`). A well-formed but
 * unsupported code is the catalogue's `currency_unsupported`, not `parameter_invalid`.
 */
export function IsCurrency(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isCurrency',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: `${String(propertyName)} must be a supported ISO 4217 currency code` },
      validator: { validate: (value: unknown) => normalizeCurrency(value) !== undefined },
    });
}

/**
 * Optional, but not nullable: absent is fine, `null` is refused (unlike `@IsOptional()`,
 * which lets null through and would let a client blank a required detail).
 */
export function IsOmittable(): PropertyDecorator {
  return ValidateIf((_object: object, value: unknown) => value !== undefined);
}

/**
 * A currency field as the DTOs declare it: documented as 3 letters in any case, normalised to
 * upper case, then IsCurrency (the same as writing `@JSONSchema(...)`, the `@Transform` above
 * and `@IsCurrency()` over the property). `description` documents the field.
 */
export function IsCurrencyField(description: string): PropertyDecorator {
  const schema = JSONSchema({ pattern: '^[A-Za-z]{3}$', description });
  const normalize = Transform(({ value }) => normalizeCurrency(value) ?? value);
  const isCurrency = IsCurrency();
  return (target, property) => {
    isCurrency(target, property);
    normalize(target, property as string);
    schema(target, property as string);
  };
}
