import { IsBoolean, IsIn, IsISO8601, IsObject, IsOptional, IsString, Length } from 'class-validator';
import { IsCurrencyField, IsMetadata, IsOmittable, JSONSchema, ListQuery } from '@paygrid/platform';
import { IsCustomerId } from '../customers/customers.dto';
import {
  DiscountDto,
  DocumentDiscount,
  DocumentLines,
  DaysUntilDue,
  InvoiceLineDto,
} from '../invoices/document-lines.dto';
import { ESTIMATE_KINDS, ESTIMATE_STATUSES, type EstimateKind, type EstimateStatus } from './estimate-state';

/** What a draft may carry; every field can be changed while it is a draft. */
export class EstimateDraftFieldsDto {
  @IsOmittable() @DocumentLines() lines?: InvoiceLineDto[];

  @IsOptional()
  @DocumentDiscount('Taken off before tax, as on invoices; `null` removes it.')
  discount?: DiscountDto | null;

  @IsOmittable()
  @IsCurrencyField("ISO 4217, any case. Default: the customer's currency.")
  currency?: string;

  @IsOptional()
  @JSONSchema({
    description:
      'RFC 3339, in the future: a sent estimate not accepted by then becomes `expired`. `null` (default): it does not expire.',
  })
  @IsISO8601({ strict: true }, { message: 'expires_at must be an RFC 3339 timestamp' })
  expires_at?: string | null;

  @IsOmittable() @IsString() @Length(1, 1000) description?: string;

  @IsOmittable() @IsObject() @IsMetadata() metadata?: Record<string, string>;
}

@JSONSchema({
  examples: [
    {
      kind: 'quote',
      customer: 'cus_4fQk2nT8bW1xZc9LmP0aRs7e',
      lines: [{ description: 'Website redesign', quantity: 1, unit_amount: 450000, tax_rate_bps: 2000 }],
      expires_at: '2026-12-31T23:59:59Z',
    },
  ],
})
export class CreateEstimateDto extends EstimateDraftFieldsDto {
  @JSONSchema({ description: 'The customer the estimate is for (`cus_...`).' })
  @IsCustomerId()
  customer!: string;

  @IsOmittable()
  @JSONSchema({
    description: '`estimate` (default) or `quote`: same flow, own numbering (`EST-0001`, `Q-0001`).',
  })
  @IsIn(ESTIMATE_KINDS, { message: 'kind must be estimate or quote' })
  kind?: EstimateKind;
}

@JSONSchema({ examples: [{ expires_at: '2027-01-31T23:59:59Z' }] })
export class UpdateEstimateDto extends EstimateDraftFieldsDto {}

@JSONSchema({ examples: [{}, { send: true }, { send: true, days_until_due: 14 }] })
export class ConvertEstimateDto {
  @IsOmittable()
  @JSONSchema({
    description:
      'Finalize the invoice and e-mail it to the customer at once (default `false`: a draft invoice).',
  })
  @IsBoolean({ message: 'send must be true or false' })
  send?: boolean;

  @IsOmittable()
  @DaysUntilDue('The invoice is due this many days after finalization (default 30).')
  days_until_due?: number;
}

export class ListEstimatesQuery extends ListQuery {
  @IsOptional()
  @JSONSchema({ description: `Only estimates in this state: ${ESTIMATE_STATUSES.join(', ')}.` })
  @IsIn(ESTIMATE_STATUSES, { message: `status must be one of ${ESTIMATE_STATUSES.join(', ')}` })
  status?: EstimateStatus;

  @IsOptional()
  @JSONSchema({ description: "Only this customer's estimates." })
  @IsCustomerId()
  customer?: string;

  @IsOptional()
  @JSONSchema({ description: 'Only estimates or only quotes.' })
  @IsIn(ESTIMATE_KINDS, { message: 'kind must be estimate or quote' })
  kind?: EstimateKind;
}
