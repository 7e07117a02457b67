// Request bodies and queries of the admin API, validated like every public DTO.

import { GROUPINGS, type Grouping } from '@paygrid/contracts';
import { IsMetadata, ListQuery } from '@paygrid/platform';
import { Transform } from 'class-transformer';
import {
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsDate,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import { MAX_ROLL_GRACE_SECONDS } from '../accounts/accounts.service';

/** Present means validated: unlike @IsOptional(), an explicit null is refused. */
const IfPresent = () => ValidateIf((_: object, value: unknown) => value !== undefined);

/** RFC 3339, or unix seconds (as in the list filters), into a Date; anything else is left to fail. */
function toTimestamp({ value }: { value: unknown }): unknown {
  if (typeof value === 'number' && Number.isInteger(value)) return new Date(value * 1000);
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:?\d{2})$/.test(value)) {
    return new Date(value);
  }
  return value;
}

export class CreateAccountDto {
  @IsString()
  @Length(1, 200)
  name: string;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayUnique()
  @IsIn(GROUPINGS, { each: true, message: `groupings must contain only ${GROUPINGS.join(', ')}` })
  groupings: Grouping[];

  @IsOptional()
  @IsObject()
  @IsMetadata()
  metadata?: Record<string, string>;
}

export class UpdateAccountDto {
  @IfPresent()
  @IsString()
  @Length(1, 200)
  name?: string;

  @IfPresent()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayUnique()
  @IsIn(GROUPINGS, { each: true, message: `groupings must contain only ${GROUPINGS.join(', ')}` })
  groupings?: Grouping[];

  /** null clears the override (back to the default limits). */
  @IsOptional()
  @IsInt({ message: 'rate_limit_per_second must be an integer between 1 and 100000, or null' })
  @Min(1, { message: 'rate_limit_per_second must be an integer between 1 and 100000, or null' })
  @Max(100_000, { message: 'rate_limit_per_second must be an integer between 1 and 100000, or null' })
  rate_limit_per_second?: number | null;

  @IfPresent()
  @IsObject()
  @IsMetadata()
  metadata?: Record<string, string>;
}

export class AccountListQuery extends ListQuery {
  @IsOptional()
  @IsIn(['active', 'suspended'])
  status?: 'active' | 'suspended';

  /** `none`: the accounts whose live payments are refused (no active live processor connection). */
  @IsOptional()
  @IsIn(['connected', 'none'])
  live_processor?: 'connected' | 'none';
}

export class CreateKeyDto {
  @IsIn(['test', 'live'])
  mode: 'test' | 'live';

  @IsIn(['secret', 'restricted'])
  kind: 'secret' | 'restricted';

  @IsOptional()
  @IsArray()
  @ArrayUnique()
  @IsString({ each: true })
  scopes?: string[];

  @IsOptional()
  @IsString()
  @MaxLength(200)
  name?: string;

  @IsOptional()
  @Transform(toTimestamp)
  @IsDate({ message: 'expires_at must be an RFC 3339 timestamp or unix seconds' })
  expires_at?: Date;
}

export class RollKeyDto {
  /** How long the old secret keeps working; 0 (the default) ends it at once. */
  @IsOptional()
  @IsInt({ message: `grace_period_seconds must be an integer from 0 to ${MAX_ROLL_GRACE_SECONDS} (7 days)` })
  @Min(0, { message: `grace_period_seconds must be an integer from 0 to ${MAX_ROLL_GRACE_SECONDS} (7 days)` })
  @Max(MAX_ROLL_GRACE_SECONDS, {
    message: `grace_period_seconds must be an integer from 0 to ${MAX_ROLL_GRACE_SECONDS} (7 days)`,
  })
  grace_period_seconds?: number;
}

export class MerchantDecisionBodyDto {
  @IsOptional()
  @IsString()
  @Length(1, 500)
  reason?: string;
}

/**
 * The operator connects a processor for an account (POST /admin/v1/accounts/:id/processor-connections).
 * The payments service validates the processor and credentials strictly; this checks the shape.
 */
export class AdminProcessorConnectionDto {
  @IsIn(['test', 'live']) mode: 'test' | 'live';
  @IsString() @MaxLength(40) processor: string;
  @IsObject() credentials: Record<string, unknown>;
  @IfPresent() @IsString() @Length(1, 500) description?: string;
}
