// The input parts invoices and estimates share: a line, the document discount, and the
// validated `lines` / `discount` / `days_until_due` fields, declared once so the two documents
// accept exactly the same shapes (the totals are computed by invoices/totals.ts for both).
// The class names stay InvoiceLineDto / DiscountDto: they name the OpenAPI components.

import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsObject,
  IsString,
  Length,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { TAX_CATEGORIES } from '@paygrid/contracts';
import { IsOmittable, JSONSchema } from '@paygrid/platform';
import { MAX_BPS, MAX_LINES, type TaxCategory } from './totals';

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
  @IsOmittable()
  @JSONSchema({
    description:
      'VAT category (EN 16931): `S` standard rated (a positive rate), `Z` zero rated, `E` exempt, `AE` reverse charge, `K` intra-community supply (VAT-exempt goods or services to a business in another member state), `G` export outside the EU (all but S at rate 0). Default: S with a positive rate, else Z.',
  })
  @IsIn(TAX_CATEGORIES, { message: `tax_category must be one of ${TAX_CATEGORIES.join(', ')}` })
  tax_category?: TaxCategory;
  @IsOmittable()
  @JSONSchema({
    description:
      'Why no VAT is charged: required for E, AE, K and G lines (the same on every line of a category), refused for S and Z.',
  })
  @IsString()
  @Length(1, 300)
  tax_exemption_reason?: string;
}

@JSONSchema({
  description: 'Either `percent_bps` (1-10 000) or `amount` (minor units), not both.',
  // Stated, not only described: checkDiscount (document-parts.ts) refuses neither and both.
  oneOf: [{ required: ['percent_bps'] }, { required: ['amount'] }],
} as Record<string, unknown>)
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

/** Applies `decorators` as if written above the property in this order (the last runs first). */
function stacked(...decorators: ((target: object, property: string) => void)[]): PropertyDecorator {
  return (target, property) => {
    for (const decorate of [...decorators].reverse()) decorate(target, property as string);
  };
}

/** `lines`: an array of InvoiceLineDto, at most MAX_LINES. */
export const DocumentLines = (): PropertyDecorator =>
  stacked(
    JSONSchema({ description: `At most ${MAX_LINES} lines; replaced as a whole on update.` }),
    IsArray(),
    ArrayMaxSize(MAX_LINES, { message: `lines must have at most ${MAX_LINES} items` }),
    ValidateNested({ each: true }),
    Type(() => InvoiceLineDto),
  );

/** `discount`: one DiscountDto; `description` says what it does on this document. */
export const DocumentDiscount = (description: string): PropertyDecorator =>
  stacked(
    JSONSchema({ description }),
    IsObject(),
    ValidateNested(),
    Type(() => DiscountDto),
  );

/** `days_until_due`: 0 to 365 days; `description` says from when. */
export const DaysUntilDue = (description: string): PropertyDecorator =>
  stacked(
    JSONSchema({ description }),
    IsInt({ message: 'days_until_due must be an integer' }),
    Min(0, { message: 'days_until_due must not be negative' }),
    Max(365, { message: 'days_until_due must be at most 365' }),
  );
