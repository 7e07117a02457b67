import { Transform } from 'class-transformer';
import {
  IsEmail,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  Length,
  Matches,
  MaxLength,
} from 'class-validator';
import { IsMetadata, normalizeCurrency } from '@paygrid/platform';

export class MerchantDetailsDto {
  @IsOptional() @IsString() @Length(1, 200) business_name?: string;
  @IsOptional() @IsEmail({}, { message: 'email must be an email address' }) @MaxLength(254) email?: string;
  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' ? value.toUpperCase() : value))
  @Matches(/^[A-Z]{2}$/, { message: 'country must be an ISO 3166-1 alpha-2 code' })
  country?: string;
  @IsOptional()
  @Transform(({ value }) => normalizeCurrency(value) ?? value)
  @IsString()
  @Matches(/^[A-Z]{3}$/, { message: 'default_currency must be an ISO 4217 code' })
  default_currency?: string;
  @IsOptional() @IsIn(['individual', 'company', 'non_profit', 'government_entity']) business_type?: string;
  @IsOptional()
  @IsUrl(
    { require_protocol: true, protocols: ['http', 'https'] },
    { message: 'website must be an http(s) URL' },
  )
  website?: string;
  @IsOptional() @IsObject() @IsMetadata() metadata?: Record<string, string>;
}

export class CreateMerchantDto extends MerchantDetailsDto {}
export class UpdateMerchantDto extends MerchantDetailsDto {}
