import { Transform } from 'class-transformer';
import { IsEmail, IsIn, IsObject, IsString, IsUrl, Length, Matches, MaxLength } from 'class-validator';
import { IsCurrencyField, IsMetadata, IsOmittable, JSONSchema } from '@paygrid/platform';

// Details are optional but not nullable: `null` would blank a requirement of an onboarded merchant.
export class MerchantDetailsDto {
  @IsOmittable() @IsString() @Length(1, 200) business_name?: string;
  @IsOmittable() @IsEmail({}, { message: 'email must be an email address' }) @MaxLength(254) email?: string;
  @IsOmittable()
  @JSONSchema({ pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2, any case.' })
  @Transform(({ value }) => (typeof value === 'string' ? value.toUpperCase() : value))
  @Matches(/^[A-Z]{2}$/, { message: 'country must be an ISO 3166-1 alpha-2 code' })
  country?: string;
  @IsOmittable()
  @IsCurrencyField('ISO 4217, any case.')
  default_currency?: string;
  @IsOmittable() @IsIn(['individual', 'company', 'non_profit', 'government_entity']) business_type?: string;
  @IsOmittable()
  @IsUrl(
    { require_protocol: true, protocols: ['http', 'https'] },
    { message: 'website must be an http(s) URL' },
  )
  website?: string;
  @IsOmittable() @IsObject() @IsMetadata() metadata?: Record<string, string>;
}

@JSONSchema({
  examples: [
    {
      business_name: 'Acme Ltd',
      email: 'ops@acme.test',
      country: 'GB',
      default_currency: 'GBP',
      business_type: 'company',
    },
  ],
})
export class CreateMerchantDto extends MerchantDetailsDto {}

@JSONSchema({ examples: [{ website: 'https://acme.test', metadata: { crm_id: '6735' } }] })
export class UpdateMerchantDto extends MerchantDetailsDto {}
