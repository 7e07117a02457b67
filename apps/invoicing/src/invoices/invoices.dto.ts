import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsISO8601,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import {
  IsCurrency,
  IsMetadata,
  IsOmittable,
  JSONSchema,
  ListQuery,
  normalizeCurrency,
  RangeFilter,
} from '@paygrid/platform';
import { INVOICE_STATUSES, type CollectionMethod, type InvoiceStatus } from './invoices.internal';
import { MAX_BPS, MAX_LINES } from './totals';

const MAX = 99_999_999_999;

export class InvoiceLineDto {
  @IsString() @Length(1, 500) description!: string;

  @JSONSchema({ description: 'A whole number, 1 to 1 000 000.' })
  @IsInt({ message: 'quantity must be an integer' })
  @Min(1, { message: 'quantity must be at least 1' })
  @Max(1_000_000, { message: 'quantity must be at most 1000000' })
  quantity!: number;

  @JSONSchema({ description: 'Minor units, 0 to 99 999 999 999.' })
  @IsInt({ message: 'unit_amount must be an integer number of minor units' })
  @Min(0, { message: 'unit_amount must not be negative' })
  @Max(MAX, { message: `unit_amount must be at most ${MAX}` })
  unit_amount!: number;

  @IsOmittable()
  @JSONSchema({ description: 'Tax rate in basis points, 0 (default) to 10 000: 2000 = 20 %.' })
  @IsInt({ message: 'tax_rate_bps must be an integer number of basis points' })
  @Min(0, { message: 'tax_rate_bps must not be negative' })
  @Max(MAX_BPS, { message: `tax_rate_bps must be at most ${MAX_BPS}` })
  tax_rate_bps?: number;
}

@JSONSchema({ description: 'Either `percent_bps` (1-10 000) or `amount` (minor units), not both.' })
export class DiscountDto {
  @IsOmittable()
  @IsInt({ message: 'percent_bps must be an integer number of basis points' })
  @Min(1, { message: 'percent_bps must be at least 1' })
  @Max(MAX_BPS, { message: `percent_bps must be at most ${MAX_BPS}` })
  percent_bps?: number;

  @IsOmittable()
  @IsInt({ message: 'amount must be an integer number of minor units' })
  @Min(1, { message: 'amount must be at least 1' })
  @Max(MAX, { message: `amount must be at most ${MAX}` })
  amount?: number;
}

/** What a draft may carry; every field can be changed while it is a draft. */
export class InvoiceDraftFieldsDto {
  @IsOmittable()
  @JSONSchema({ description: `At most ${MAX_LINES} lines; replaced as a whole on update.` })
  @IsArray()
  @ArrayMaxSize(MAX_LINES, { message: `lines must have at most ${MAX_LINES} items` })
  @ValidateNested({ each: true })
  @Type(() => InvoiceLineDto)
  lines?: InvoiceLineDto[];

  @IsOptional()
  @JSONSchema({ description: 'Taken off before tax; `null` removes it.' })
  @IsObject()
  @ValidateNested()
  @Type(() => DiscountDto)
  discount?: DiscountDto | null;

  @IsOmittable()
  @JSONSchema({
    pattern: '^[A-Za-z]{3}$',
    description: "ISO 4217, any case. Default: the customer's currency.",
  })
  @Transform(({ value }) => normalizeCurrency(value) ?? value)
  @IsCurrency()
  currency?: string;

  @IsOmittable()
  @IsIn(['send_invoice', 'charge_automatically'])
  collection_method?: CollectionMethod;

  @IsOmittable()
  @JSONSchema({ description: 'send_invoice: due this many days after finalization (default 30).' })
  @IsInt({ message: 'days_until_due must be an integer' })
  @Min(0, { message: 'days_until_due must not be negative' })
  @Max(365, { message: 'days_until_due must be at most 365' })
  days_until_due?: number;

  @IsOmittable()
  @JSONSchema({ description: 'RFC 3339; instead of `days_until_due`. Must be in the future.' })
  @IsISO8601({ strict: true }, { message: 'due_date must be an RFC 3339 timestamp' })
  due_date?: string;

  @IsOmittable() @IsString() @Length(1, 1000) description?: string;

  @IsOmittable() @IsObject() @IsMetadata() metadata?: Record<string, string>;
}

@JSONSchema({
  examples: [
    {
      customer: 'cus_4fQk2nT8bW1xZc9LmP0aRs7e',
      lines: [
        { description: 'Consulting (hours)', quantity: 2, unit_amount: 1500, tax_rate_bps: 2000 },
        { description: 'Books', quantity: 3, unit_amount: 333, tax_rate_bps: 500 },
      ],
      discount: { percent_bps: 1000 },
      send: false,
    },
  ],
})
export class CreateInvoiceDto extends InvoiceDraftFieldsDto {
  @JSONSchema({ description: 'The customer billed (`cus_...`).' })
  @IsString()
  @Matches(/^cus_[0-9A-Za-z]{8,64}$/, { message: 'customer must be a customer id' })
  customer!: string;

  @IsOmittable()
  @JSONSchema({ description: 'Finalize and send at once (default `true`); `false` keeps a draft.' })
  @IsBoolean({ message: 'send must be true or false' })
  send?: boolean;
}

@JSONSchema({ examples: [{ lines: [{ description: 'Consulting', quantity: 3, unit_amount: 1500 }] }] })
export class UpdateInvoiceDto extends InvoiceDraftFieldsDto {}

@JSONSchema({ examples: [{ paid_out_of_band: true }, {}] })
export class PayInvoiceDto {
  @IsOmittable()
  @JSONSchema({ description: 'Record the invoice as paid outside Paygrid instead of charging the mandate.' })
  @IsBoolean({ message: 'paid_out_of_band must be true or false' })
  paid_out_of_band?: boolean;
}

export class ListInvoicesQuery extends ListQuery {
  @IsOptional()
  @JSONSchema({ description: `Only invoices in this state: ${INVOICE_STATUSES.join(', ')}.` })
  @IsIn(INVOICE_STATUSES, { message: `status must be one of ${INVOICE_STATUSES.join(', ')}` })
  status?: InvoiceStatus;

  @IsOptional()
  @JSONSchema({ description: "Only this customer's invoices." })
  @IsString()
  @Matches(/^cus_[0-9A-Za-z]{8,64}$/, { message: 'customer must be a customer id' })
  customer?: string;

  @IsOptional()
  @JSONSchema({ description: "Only this subscription's invoices." })
  @IsString()
  @Matches(/^sub_[0-9A-Za-z]{8,64}$/, { message: 'subscription must be a subscription id' })
  subscription?: string;

  @IsOptional()
  @JSONSchema({ description: 'Only invoices due in this range: `due_date[gt]`, `[gte]`, `[lt]`, `[lte]`.' })
  @ValidateNested()
  @Type(() => RangeFilter)
  due_date?: RangeFilter;
}
