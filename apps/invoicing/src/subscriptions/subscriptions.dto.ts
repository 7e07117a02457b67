import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  registerDecorator,
  ValidateNested,
} from 'class-validator';
import {
  IsCurrencyField,
  IsMetadata,
  IsOmittable,
  JSONSchema,
  ListQuery,
  RangeFilter,
} from '@paygrid/platform';
import { IsCustomerId } from '../customers/customers.dto';
import { INTERVALS } from './billing-cycle';
import { SUBSCRIPTION_STATUSES } from './subscription-states';

const MAX = 99_999_999_999;
const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** 9999-12-31T23:59:59Z: the last instant an RFC 3339 timestamp can write. */
export const LATEST_TIME_MS = 253_402_300_799_000;

/**
 * The schema of a time a client sends: RFC 3339, or unix seconds as Stripe takes them; both
 * are documented, so a client (and a fuzzer) knows an integer is a time and not a mistake.
 */
export function dateInput(description: string) {
  return {
    description,
    oneOf: [
      { type: 'string' as const, format: 'date-time' },
      { type: 'integer' as const, minimum: 1, maximum: LATEST_TIME_MS / 1000, description: 'Unix seconds.' },
    ],
  };
}

/** RFC 3339 or unix seconds in, Date out; anything else stays as is and fails IsDate-like checks. */
export const toDate = ({ value }: { value: unknown }) => {
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return new Date(value * 1000);
  if (typeof value === 'string' && TIME.test(value) && !Number.isNaN(new Date(value).getTime()))
    return new Date(value);
  return value;
};

export class SubscriptionItemDto {
  @IsString() @Length(1, 500) description!: string;

  @IsInt({ message: 'unit_amount must be an integer number of minor units' })
  @Min(0, { message: 'unit_amount must not be negative' })
  @Max(MAX, { message: `unit_amount must be at most ${MAX}` })
  unit_amount!: number;

  @IsCurrencyField('ISO 4217, any case; the same for every item.')
  currency!: string;

  @IsOptional()
  @IsInt({ message: 'quantity must be an integer' })
  @Min(1, { message: 'quantity must be at least 1' })
  @Max(1_000_000, { message: 'quantity must be at most 1000000' })
  quantity?: number;

  @JSONSchema({ description: 'The billing cycle: the same for every item of a subscription.' })
  @IsIn(INTERVALS)
  interval!: (typeof INTERVALS)[number];

  @IsOptional()
  @IsInt({ message: 'interval_count must be an integer' })
  @Min(1, { message: 'interval_count must be at least 1' })
  @Max(365, { message: 'interval_count must be at most 365' })
  interval_count?: number;
}

@JSONSchema({
  examples: [
    {
      customer: 'cus_4fQk2nT8bW1xZc9LmP0aRs7e',
      items: [
        {
          description: 'Pro plan',
          unit_amount: 1000,
          currency: 'GBP',
          quantity: 1,
          interval: 'month',
          interval_count: 1,
        },
      ],
      collection_method: 'send_invoice',
    },
    {
      customer: 'cus_4fQk2nT8bW1xZc9LmP0aRs7e',
      items: [
        {
          description: 'Seat',
          unit_amount: 900,
          currency: 'EUR',
          quantity: 5,
          interval: 'year',
          interval_count: 1,
        },
      ],
      billing_cycle_anchor: '2027-01-31T00:00:00Z',
      trial_period_days: 14,
      time_zone: 'Europe/Paris',
      dunning_end_state: 'unpaid',
    },
  ],
  // The service's cross-field rules, stated (subscriptions.service.ts): trial_end and
  // trial_period_days exclude each other; days_until_due needs collection_method send_invoice.
  not: { required: ['trial_end', 'trial_period_days'] },
  if: { required: ['days_until_due'] },
  then: { required: ['collection_method'], properties: { collection_method: { const: 'send_invoice' } } },
} as Record<string, unknown>)
export class CreateSubscriptionDto {
  @IsCustomerId()
  customer!: string;

  @IsArray()
  @ArrayMinSize(1, { message: 'items must have at least 1 item' })
  @ArrayMaxSize(20, { message: 'items must have at most 20 items' })
  @ValidateNested({ each: true })
  @Type(() => SubscriptionItemDto)
  items!: SubscriptionItemDto[];

  @IsOptional()
  @JSONSchema(dateInput('Periods are computed from this instant (default: the trial end, else now).'))
  @Transform(toDate)
  @IsDateValue()
  billing_cycle_anchor?: Date;

  @IsOptional()
  @JSONSchema(dateInput('End of the trial (after now). Not with trial_period_days.'))
  @Transform(toDate)
  @IsDateValue()
  trial_end?: Date;

  @IsOptional() @IsInt() @Min(1) @Max(730) trial_period_days?: number;

  @IsOptional() @IsIn(['charge_automatically', 'send_invoice']) collection_method?:
    'charge_automatically' | 'send_invoice';

  @IsOptional() @IsInt() @Min(0) @Max(365) days_until_due?: number;

  @IsOptional()
  @JSONSchema({ description: 'IANA time zone the periods are computed in (default UTC).' })
  @IsString()
  @MaxLength(64)
  time_zone?: string;

  @IsOptional()
  @JSONSchema({
    description: 'What the subscription becomes when the last dunning retry fails (default `canceled`).',
  })
  @IsIn(['unpaid', 'canceled'])
  dunning_end_state?: 'unpaid' | 'canceled';

  @IsOptional()
  @JSONSchema({
    description:
      'A billing_cycle_anchor after the start bills the stub pro rata (`create_prorations`, default) or not at all (`none`).',
  })
  @IsIn(['create_prorations', 'none'])
  proration_behavior?: 'create_prorations' | 'none';

  @IsOptional() @IsObject() @IsMetadata() metadata?: Record<string, string>;
}

@JSONSchema({
  examples: [
    {
      items: [
        {
          description: 'Pro plan',
          unit_amount: 2500,
          currency: 'GBP',
          quantity: 2,
          interval: 'month',
          interval_count: 1,
        },
      ],
      proration_behavior: 'create_prorations',
    },
  ],
})
export class UpdateSubscriptionDto {
  @IsOmittable()
  @IsArray()
  @ArrayMinSize(1, { message: 'items must have at least 1 item' })
  @ArrayMaxSize(20, { message: 'items must have at most 20 items' })
  @ValidateNested({ each: true })
  @Type(() => SubscriptionItemDto)
  items?: SubscriptionItemDto[];

  @IsOmittable() @IsIn(['create_prorations', 'none', 'always_invoice']) proration_behavior?:
    'create_prorations' | 'none' | 'always_invoice';

  @IsOmittable()
  @JSONSchema(
    dateInput(
      "Prorate as of this instant (within the current period, not after now); default now. Pass the preview's to bill exactly what it showed.",
    ),
  )
  @Transform(toDate)
  @IsDateValue()
  proration_date?: Date;

  @IsOmittable() @IsIn(['charge_automatically', 'send_invoice']) collection_method?:
    'charge_automatically' | 'send_invoice';
  @IsOmittable() @IsInt() @Min(0) @Max(365) days_until_due?: number;
  @IsOmittable() @IsIn(['unpaid', 'canceled']) dunning_end_state?: 'unpaid' | 'canceled';
  @IsOmittable() @IsBoolean() cancel_at_period_end?: boolean;
  @IsOmittable() @IsObject() @IsMetadata() metadata?: Record<string, string>;
}

@JSONSchema({ examples: [{ at: 'period_end' }] })
export class CancelSubscriptionDto {
  @IsOptional()
  @JSONSchema({
    description: '`now` (default) ends it at once; `period_end` at the end of the current period.',
  })
  @IsIn(['now', 'period_end'])
  at?: 'now' | 'period_end';
}

export class ListSubscriptionsQuery extends ListQuery {
  @IsOptional() @IsIn(SUBSCRIPTION_STATUSES) status?: (typeof SUBSCRIPTION_STATUSES)[number];
  @IsOptional()
  @IsCustomerId()
  customer?: string;
  @IsOptional()
  @IsString()
  @Matches(/^clock_[0-9A-Za-z]{8,64}$/, { message: 'test_clock must be a test clock id' })
  test_clock?: string;
  @IsOptional() @ValidateNested() @Type(() => RangeFilter) current_period_end?: RangeFilter;
}

/** A Date the transform produced (not a string it could not parse). */
export function IsDateValue(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isDateValue',
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        message: `${String(propertyName)} must be an RFC 3339 timestamp or unix seconds, between 1970 and 9999`,
      },
      // Past year 9999 an RFC 3339 answer cannot carry the date ("+102637-..." broke the
      // document's own date-time format): such a time is refused on the way in.
      validator: {
        validate: (value: unknown) =>
          value instanceof Date &&
          !Number.isNaN(value.getTime()) &&
          value.getTime() >= 0 &&
          value.getTime() <= LATEST_TIME_MS,
      },
    });
}
