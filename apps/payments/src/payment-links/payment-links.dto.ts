import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsISO8601,
  IsObject,
  IsString,
  IsUrl,
  Length,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { IsCurrencyField, IsMetadata, IsOmittable, JSONSchema } from '@paygrid/platform';

const MAX = 99_999_999_999;

export class LineItemDto {
  @IsString() @Length(1, 500) description!: string;

  @IsInt({ message: 'quantity must be an integer' })
  @Min(1, { message: 'quantity must be at least 1' })
  @Max(10_000, { message: 'quantity must be at most 10000' })
  quantity!: number;

  @JSONSchema({ description: 'Minor units, 1 to 99 999 999 999.' })
  @IsInt({ message: 'unit_amount must be an integer number of minor units' })
  @Min(1, { message: 'unit_amount must be at least 1' })
  @Max(MAX, { message: `unit_amount must be at most ${MAX}` })
  unit_amount!: number;
}

export class RecurringDto {
  @IsIn(['day', 'week', 'month', 'year']) interval!: 'day' | 'week' | 'month' | 'year';

  @IsOmittable()
  @IsInt({ message: 'interval_count must be an integer' })
  @Min(1, { message: 'interval_count must be at least 1' })
  @Max(365, { message: 'interval_count must be at most 365' })
  interval_count?: number;
}

export class AfterCompletionDto {
  @IsUrl(
    { require_protocol: true, protocols: ['http', 'https'], require_tld: false },
    { message: 'redirect_url must be an http(s) URL' },
  )
  @Length(1, 2000)
  redirect_url!: string;
}

@JSONSchema({
  examples: [
    { amount: 2500, currency: 'USD', description: 'Annual plan', client_reference_id: 'order_6735' },
  ],
  // The document states what PaymentLinksService.create refuses (Schemathesis sent both):
  // exactly one of `amount` and `line_items`; a recurring link needs `recurring`, a one-time
  // link (the default type) must not have it.
  oneOf: [{ required: ['amount'] }, { required: ['line_items'] }],
  if: { required: ['type'], properties: { type: { const: 'recurring' } } },
  then: { required: ['recurring'] },
  else: { not: { required: ['recurring'] } },
} as Record<string, unknown>)
export class CreatePaymentLinkDto {
  @IsOmittable()
  @JSONSchema({ description: "The merchant paid; default: the account's." })
  @IsString()
  @Matches(/^mer_[0-9A-Za-z]{8,64}$/, { message: 'merchant must be a merchant id' })
  merchant?: string;

  @IsOmittable() @IsIn(['one_time', 'recurring']) type?: 'one_time' | 'recurring';

  @IsOmittable()
  @JSONSchema({ description: 'Minor units, 1 to 99 999 999 999; give either this or `line_items`.' })
  @IsInt({ message: 'amount must be an integer number of minor units' })
  @Min(1, { message: 'amount must be at least 1' })
  @Max(MAX, { message: `amount must be at most ${MAX}` })
  amount?: number;

  @IsCurrencyField('ISO 4217, any case.')
  currency!: string;

  @IsOmittable()
  @JSONSchema({ description: 'At most 20; the total is computed by the server.' })
  @IsArray()
  @ArrayMinSize(1, { message: 'line_items must have at least 1 item' })
  @ArrayMaxSize(20, { message: 'line_items must have at most 20 items' })
  @ValidateNested({ each: true })
  @Type(() => LineItemDto)
  line_items?: LineItemDto[];

  @IsOmittable() @ValidateNested() @Type(() => RecurringDto) recurring?: RecurringDto;

  @IsOmittable() @IsString() @Length(1, 500) description?: string;

  @IsOmittable()
  @IsInt({ message: 'max_completions must be an integer' })
  @Min(1, { message: 'max_completions must be at least 1' })
  @Max(1_000_000, { message: 'max_completions must be at most 1000000' })
  max_completions?: number;

  @IsOmittable()
  @JSONSchema({ description: 'RFC 3339; must be in the future.' })
  @IsISO8601({ strict: true }, { message: 'expires_at must be an RFC 3339 timestamp' })
  expires_at?: string;

  @IsOmittable() @ValidateNested() @Type(() => AfterCompletionDto) after_completion?: AfterCompletionDto;

  @IsOmittable() @IsString() @Length(1, 200) client_reference_id?: string;

  @IsOmittable() @IsObject() @IsMetadata() metadata?: Record<string, string>;
}

@JSONSchema({ examples: [{ description: 'Annual plan (2027)', metadata: { campaign: 'spring' } }] })
export class UpdatePaymentLinkDto {
  @IsOmittable() @IsString() @Length(1, 500) description?: string;

  @IsOmittable() @IsObject() @IsMetadata() metadata?: Record<string, string>;

  @IsOmittable()
  @JSONSchema({
    description: '`false` deactivates the link; `true` reactivates it unless completed or expired.',
  })
  @IsBoolean()
  active?: boolean;
}
