import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsISO8601,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
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
import {
  DaysUntilDue,
  DiscountDto,
  DocumentDiscount,
  DocumentLines,
  InvoiceLineDto,
} from './document-lines.dto';
import { INVOICE_STATUSES, type CollectionMethod, type InvoiceStatus } from './invoices.internal';

/** What a draft may carry; every field can be changed while it is a draft. */
export class InvoiceDraftFieldsDto {
  @IsOmittable() @DocumentLines() lines?: InvoiceLineDto[];

  @IsOptional()
  @DocumentDiscount('Taken off before tax; `null` removes it.')
  discount?: DiscountDto | null;

  @IsOmittable()
  @IsCurrencyField("ISO 4217, any case. Default: the customer's currency.")
  currency?: string;

  @IsOmittable()
  @IsIn(['send_invoice', 'charge_automatically'])
  collection_method?: CollectionMethod;

  @IsOmittable()
  @DaysUntilDue('send_invoice: due this many days after finalization (default 30).')
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
  // checkDraft's cross-field rules, stated (create-invoice.ts): days_until_due or due_date,
  // not both; a charge_automatically invoice takes neither (send_invoice is the default).
  not: { required: ['days_until_due', 'due_date'] },
  if: {
    required: ['collection_method'],
    properties: { collection_method: { const: 'charge_automatically' } },
  },
  then: { not: { anyOf: [{ required: ['days_until_due'] }, { required: ['due_date'] }] } },
} as Record<string, unknown>)
export class CreateInvoiceDto extends InvoiceDraftFieldsDto {
  @JSONSchema({ description: 'The customer billed (`cus_...`).' })
  @IsCustomerId()
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
  @IsCustomerId()
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

/** GET /v1/invoices/:id/pdf: the plain PDF, or the Factur-X PDF/A-3 (EN 16931). */
export class InvoicePdfQuery {
  @IsOptional()
  @JSONSchema({
    description:
      '`facturx`: a Factur-X / ZUGFeRD PDF/A-3b with the CII XML (profile EN 16931) embedded as `factur-x.xml`. Default: the plain PDF.',
  })
  @IsIn(['facturx'], { message: 'format must be facturx' })
  format?: 'facturx';
}
