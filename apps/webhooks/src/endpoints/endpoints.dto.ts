import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsObject,
  IsString,
  MaxLength,
} from 'class-validator';
import { INVOICING_EVENT_TYPES, PAYMENTS_EVENT_TYPES, PLATFORM_EVENT_TYPES } from '@paygrid/contracts';
import { IsMetadata, IsOmittable, JSONSchema } from '@paygrid/platform';

/**
 * What the document says `enabled_events` may hold: `["*"]` alone, or known event types (which
 * of them an account may name depends on its groupings, checked by the service). Without it a
 * client (and Schemathesis) could only learn from a 400 that `""` is not an event type.
 */
const ENABLED_EVENTS_SCHEMA = {
  anyOf: [
    { const: ['*'] },
    {
      // merchant.onboarding.updated is in both groupings' lists.
      items: {
        enum: [...new Set([...PLATFORM_EVENT_TYPES, ...PAYMENTS_EVENT_TYPES, ...INVOICING_EVENT_TYPES])],
      },
    },
  ],
};

@JSONSchema({
  examples: [{ url: 'https://hooks.example.com/paygrid', enabled_events: ['merchant.onboarding.updated'] }],
})
export class CreateWebhookEndpointDto {
  @JSONSchema({ description: 'https URL resolving to public addresses (live mode).' })
  @IsString()
  @MaxLength(2048)
  url!: string;

  @JSONSchema({
    description: 'Event types of the account\'s groupings, or `["*"]` for all of them.',
    ...ENABLED_EVENTS_SCHEMA,
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @IsString({ each: true })
  enabled_events!: string[];

  @IsOmittable() @IsString() @MaxLength(500) description?: string;
  @IsOmittable() @IsObject() @IsMetadata() metadata?: Record<string, string>;
}

@JSONSchema({ examples: [{ description: 'Order system', disabled: false }] })
export class UpdateWebhookEndpointDto {
  @IsOmittable() @IsString() @MaxLength(2048) url?: string;
  @JSONSchema(ENABLED_EVENTS_SCHEMA)
  @IsOmittable()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @IsString({ each: true })
  enabled_events?: string[];
  @IsOmittable() @IsString() @MaxLength(500) description?: string;
  @JSONSchema({ description: '`true` disables the endpoint; `false` enables it again.' })
  @IsOmittable()
  @IsBoolean()
  disabled?: boolean;
  @IsOmittable() @IsObject() @IsMetadata() metadata?: Record<string, string>;
}
