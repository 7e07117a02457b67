import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsEmail,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { IsCurrencyField, IsMetadata, IsOmittable, JSONSchema, ListQuery } from '@paygrid/platform';

/** A customer id (`cus_...`), as `@IsString() @Matches(...)` written above the property. */
export function IsCustomerId(): PropertyDecorator {
  const matches = Matches(/^cus_[0-9A-Za-z]{8,64}$/, { message: 'customer must be a customer id' });
  const isString = IsString();
  return (target, property) => {
    matches(target, property);
    isString(target, property);
  };
}

const upper = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.toUpperCase() : value);

// Every part is optional; `null` clears a part (an address is replaced as a whole).
@JSONSchema({ examples: [{ line1: '1 High Street', city: 'London', postal_code: 'N1 9GU', country: 'GB' }] })
export class AddressDto {
  @IsOptional() @IsString() @MaxLength(200) line1?: string | null;
  @IsOptional() @IsString() @MaxLength(200) line2?: string | null;
  @IsOptional() @IsString() @MaxLength(100) city?: string | null;
  @IsOptional() @IsString() @MaxLength(20) postal_code?: string | null;
  @IsOptional() @IsString() @MaxLength(100) state?: string | null;
  @IsOptional()
  @JSONSchema({ pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2, any case.' })
  @Transform(upper)
  @Matches(/^[A-Z]{2}$/, { message: 'address.country must be an ISO 3166-1 alpha-2 code' })
  country?: string | null;
}

// Optional but not nullable: `null` would blank a detail (docs/api.md §1, IsOmittable).
export class CustomerDetailsDto {
  @IsOmittable() @IsString() @Length(1, 200) name?: string;
  @IsOmittable() @IsEmail({}, { message: 'email must be an email address' }) @MaxLength(254) email?: string;
  @IsOmittable()
  @IsString()
  @Matches(/^\+?[0-9 ().-]{3,40}$/, { message: 'phone must be a phone number' })
  @MaxLength(40, { message: 'phone must be at most 40 characters' })
  phone?: string;
  @IsOmittable() @IsObject() @ValidateNested() @Type(() => AddressDto) address?: AddressDto;
  @IsOmittable() @IsString() @Length(1, 50) tax_id?: string;
  @IsOmittable()
  @IsCurrencyField('ISO 4217, any case: the currency the customer is billed in.')
  currency?: string;
  @IsOmittable()
  @JSONSchema({ description: "Your id for the customer; unique among the account's customers of this mode." })
  @IsString()
  @Length(1, 100)
  external_id?: string;
  @IsOmittable()
  @JSONSchema({
    description:
      'BCP 47 language tags, most preferred first (e.g. `["de-AT", "en"]`): pages, e-mails and PDFs use the first supported language (en, de, fr, es, pl), English otherwise.',
    examples: [['de-AT', 'en']],
  })
  @IsArray()
  @ArrayMaxSize(5)
  @Matches(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8}){0,3}$/, {
    each: true,
    message: 'preferred_locales must be BCP 47 language tags such as de or de-AT',
  })
  preferred_locales?: string[];
  @IsOmittable() @IsObject() @IsMetadata() metadata?: Record<string, string>;
}

@JSONSchema({
  examples: [
    {
      name: 'Jenny Rosen',
      email: 'jenny@example.test',
      currency: 'GBP',
      address: { line1: '1 High Street', city: 'London', postal_code: 'N1 9GU', country: 'GB' },
    },
    { name: 'Acme Ltd', email: 'billing@acme.test', external_id: 'crm-6735', metadata: { tier: 'gold' } },
  ],
})
export class CreateCustomerDto extends CustomerDetailsDto {
  @IsOmittable()
  @JSONSchema({
    description:
      'Test mode: the test clock (`clock_...`) the customer, its subscriptions and invoices live on.',
  })
  @IsString()
  @Matches(/^clock_[0-9A-Za-z]{8,64}$/, { message: 'test_clock must be a test clock id' })
  test_clock?: string;
}

@JSONSchema({ examples: [{ phone: '+44 20 7946 0000', metadata: { tier: 'gold' } }] })
export class UpdateCustomerDto extends CustomerDetailsDto {}

export class ListCustomersQuery extends ListQuery {
  @IsOptional()
  @JSONSchema({ description: 'Only customers with this e-mail address (exact, case-insensitive).' })
  @IsString()
  @MaxLength(254)
  email?: string;

  @IsOptional()
  @JSONSchema({ description: 'Only the customer with this external id.' })
  @IsString()
  @MaxLength(100)
  external_id?: string;

  @IsOptional()
  @JSONSchema({ description: 'Include archived (deleted) customers: `true` or `false` (default).' })
  @IsIn(['true', 'false'], { message: 'include_archived must be true or false' })
  include_archived?: 'true' | 'false';
}
