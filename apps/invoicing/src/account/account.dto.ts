// The business profile's request bodies (docs/api.md §5, POST /v1/account): every field is
// optional, `null` clears it, anything unknown is refused by the global validation pipe.

import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { JSONSchema } from '@paygrid/platform';
import { TAX_ID_TYPES, type TaxIdType } from './tax-ids';

const upper = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.toUpperCase() : value);
const lower = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.toLowerCase() : value);

/** Which e-mails go to the account's customers; a field left out keeps its value. */
export class ReceiptSwitchesDto {
  @IsOptional()
  @JSONSchema({ description: 'E-mail a receipt (PDF attached) when a payment succeeds. Default true.' })
  @IsBoolean()
  payments?: boolean;
  @IsOptional()
  @JSONSchema({ description: 'E-mail a refund notice when a refund succeeds. Default true.' })
  @IsBoolean()
  refunds?: boolean;
}

export class AccountAddressDto {
  @IsOptional() @IsString() @Length(1, 200) line1?: string | null;
  @IsOptional() @IsString() @Length(1, 200) line2?: string | null;
  @IsOptional() @IsString() @Length(1, 100) city?: string | null;
  @IsOptional() @IsString() @Length(1, 20) postal_code?: string | null;
  @IsOptional() @IsString() @Length(1, 100) state?: string | null;
  @IsOptional()
  @JSONSchema({ pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2, any case.' })
  @Transform(upper)
  @Matches(/^[A-Z]{2}$/, { message: 'address.country must be an ISO 3166-1 alpha-2 code' })
  country?: string | null;
}

export class TaxIdDto {
  @IsIn(TAX_ID_TYPES, { message: `type must be one of ${TAX_ID_TYPES.join(', ')}` })
  type!: TaxIdType;
  @JSONSchema({
    description: 'Checked against the format of its type (an EU VAT number: of its country prefix).',
  })
  @IsString()
  @Length(2, 40)
  value!: string;
}

/**
 * Stripe's rules for a statement descriptor: 5-22 characters of printable ASCII, at least one
 * letter, none of < > \ ' " * (card networks refuse them).
 */
export const STATEMENT_DESCRIPTOR = /^(?=.*[A-Za-z])[\x20-\x7e]{5,22}$/;
/** Printable ASCII but < > \ ' " *, 5 to 22 of them: the documented pattern. */
const STATEMENT_DESCRIPTOR_CHARACTERS =
  '^[\\x20\\x21\\x23-\\x26\\x28\\x29\\x2B-\\x3B\\x3D\\x3F-\\x5B\\x5D-\\x7E]{5,22}$';

@JSONSchema({
  examples: [
    {
      legal_name: 'Zoë Łukasiewicz Ltd',
      trading_name: 'Zoë Studio',
      address: { line1: 'ul. Świętokrzyska 12', city: 'Warszawa', postal_code: '00-916', country: 'PL' },
      tax_ids: [{ type: 'eu_vat', value: 'PL5260250274' }],
      support_email: 'billing@zoe.example',
      brand_color: '#0a7c59',
      statement_descriptor: 'ZOE STUDIO',
      payment_terms_days: 14,
    },
  ],
})
export class UpdateAccountDto {
  @IsOptional() @IsString() @Length(1, 200) legal_name?: string | null;
  @IsOptional() @IsString() @Length(1, 200) trading_name?: string | null;
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => AccountAddressDto)
  address?: AccountAddressDto | null;
  @IsOptional()
  @JSONSchema({ description: 'Replaces the list as a whole (at most 5).' })
  @IsArray()
  @ArrayMaxSize(5)
  @ValidateNested({ each: true })
  @Type(() => TaxIdDto)
  tax_ids?: TaxIdDto[] | null;
  @IsOptional()
  @Transform(lower)
  @IsEmail({}, { message: 'support_email must be an email address' })
  @MaxLength(254)
  support_email?: string | null;
  @IsOptional()
  @IsString()
  @Matches(/^\+?[0-9 ().-]{3,40}$/, { message: 'support_phone must be a phone number' })
  @MaxLength(40, { message: 'support_phone must be at most 40 characters' })
  support_phone?: string | null;
  @IsOptional()
  @IsUrl(
    { protocols: ['https', 'http'], require_protocol: true },
    { message: 'website must be an http(s) URL' },
  )
  @MaxLength(500)
  website?: string | null;
  @IsOptional()
  @JSONSchema({ pattern: '^#[0-9A-Fa-f]{6}$', description: '`#rrggbb`; stored in lower case.' })
  @Transform(lower)
  @Matches(/^#[0-9a-f]{6}$/, { message: 'brand_color must be a colour as #rrggbb' })
  brand_color?: string | null;
  @IsOptional()
  @JSONSchema({
    // Without the letter rule: generators (fast-check, Schemathesis) cannot build lookaheads.
    pattern: STATEMENT_DESCRIPTOR_CHARACTERS,
    description:
      '5-22 characters of Latin letters, digits and punctuation with at least one letter; none of < > \\ \' " *.',
  })
  @IsString()
  @Matches(STATEMENT_DESCRIPTOR, {
    message: 'statement_descriptor must be 5-22 Latin characters with at least one letter',
  })
  @Matches(/^[^<>\\'"*]*$/, { message: `statement_descriptor must not contain < > \\ ' " *` })
  statement_descriptor?: string | null;
  @IsOptional() @IsString() @Length(1, 500) invoice_footer?: string | null;
  @IsOptional()
  @JSONSchema({ description: 'Days an invoice is due after finalization unless it says otherwise.' })
  @IsInt()
  @Min(0)
  @Max(365)
  payment_terms_days?: number | null;
  @IsOptional()
  @JSONSchema({
    description:
      'Receipts e-mailed to your customers (to the address a checkout payer gave, or the customer of the invoice paid): `payments` (a receipt with its number and PDF) and `refunds` (a refund notice). Merged: a field left out keeps its value; `null` turns both back on.',
  })
  @IsObject()
  @ValidateNested()
  @Type(() => ReceiptSwitchesDto)
  receipts?: ReceiptSwitchesDto | null;
  @IsOptional()
  @JSONSchema({
    description:
      'Whether customers may cancel their subscriptions at the end of the period in the customer portal (default false; `null` is false).',
  })
  @IsBoolean()
  portal_subscription_cancel?: boolean | null;
}

/**
 * Base64 as RFC 4648 writes it (groups of four, `=` padding, no line breaks), not empty: the
 * documented pattern, so the document states what the upload refuses (Schemathesis sent an
 * empty string, which the schema called valid).
 */
export const LOGO_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{4}|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2}==)$/;

/** A one-pixel PNG in the brand colour: the documented example of an upload. */
export const EXAMPLE_LOGO_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGPgqokEAAFzAOBIgglpAAAAAElFTkSuQmCC';

/**
 * A logo: PNG or JPEG (told by its first bytes, whatever a name says), at most 512 KiB. JSON
 * with base64 rather than a raw image body: every /v1 body is JSON (the gateway refuses other
 * media types with 415), and 512 KiB in base64 stays inside the 1 MiB body limit.
 */
@JSONSchema({ examples: [{ file: EXAMPLE_LOGO_PNG }] })
export class UploadLogoDto {
  @JSONSchema({
    description:
      'The image in base64 (RFC 4648: padded, no line breaks): PNG or JPEG, at most 512 KiB decoded.',
    pattern: LOGO_BASE64.source,
  })
  @IsString()
  @MaxLength(700_000, { message: 'file must be at most 512 KiB (700,000 base64 characters)' })
  @Matches(LOGO_BASE64, { message: 'file must be the image encoded in base64.' })
  file!: string;
}
