import { Type } from 'class-transformer';
import { IsIn, IsObject, IsString, Length, MaxLength, ValidateNested } from 'class-validator';
import { IsOmittable, JSONSchema } from '@paygrid/platform';
import { STRIPE_KEY, STRIPE_WEBHOOK_SECRET } from '../connectors/stripe/stripe.processor';

export const PROCESSORS = ['stripe'] as const;
export type ProcessorName = (typeof PROCESSORS)[number];

// The patterns are Stripe's (the one processor so far) and the ones its connector checks
// (StripeProcessor.checkCredentials, which answers 400 naming the field): stated in the
// document, so a client and the contract fuzz know them (Schemathesis ST202 without them).
export class ProcessorCredentialsDto {
  @JSONSchema({
    description: 'The processor API key (Stripe: `sk_live_...` or a restricted `rk_live_...`). Write-only.',
    pattern: STRIPE_KEY.source,
    writeOnly: true,
  })
  @IsString()
  @MaxLength(255)
  secret_key: string;

  @JSONSchema({
    description: "The processor's webhook signing secret (Stripe: `whsec_...`). Write-only.",
    pattern: STRIPE_WEBHOOK_SECRET.source,
    writeOnly: true,
  })
  @IsString()
  @MaxLength(255)
  webhook_signing_secret: string;
}

@JSONSchema({
  examples: [
    {
      processor: 'stripe',
      credentials: {
        secret_key: 'sk_test_4eC39HqLyjWDarjtT1zdp7dc',
        webhook_signing_secret: 'whsec_4eC39HqLyjWDarjtT1zdp7dc',
      },
    },
  ],
})
export class CreateProcessorConnectionDto {
  @IsIn(PROCESSORS) processor: ProcessorName;

  @JSONSchema({ description: 'Sealed at rest (AES-256-GCM) and never returned.' })
  @IsObject()
  @ValidateNested()
  @Type(() => ProcessorCredentialsDto)
  credentials: ProcessorCredentialsDto;

  @IsOmittable() @IsString() @Length(1, 500) description?: string;
}

/** A new description, or new credentials (a key rotation: the connection stays the same). */
@JSONSchema({
  examples: [{ description: 'Stripe, main account' }],
})
export class UpdateProcessorConnectionDto {
  @IsOmittable() @IsString() @Length(1, 500) description?: string;

  @IsOmittable()
  @JSONSchema({ description: 'Replaces the stored credentials; the verification starts again.' })
  @IsObject()
  @ValidateNested()
  @Type(() => ProcessorCredentialsDto)
  credentials?: ProcessorCredentialsDto;
}

/** The operator's create (admin API): the same, for a named account and mode. */
export class OperatorCreateProcessorConnectionDto extends CreateProcessorConnectionDto {
  @IsString() @MaxLength(64) account: string;
  @IsIn(['test', 'live']) mode: 'test' | 'live';
}
