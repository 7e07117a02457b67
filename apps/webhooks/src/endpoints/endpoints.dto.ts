import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsObject,
  IsString,
  MaxLength,
} from 'class-validator';
import { IsMetadata, IsOmittable, JSONSchema } from '@paygrid/platform';

@JSONSchema({
  examples: [{ url: 'https://hooks.example.com/paygrid', enabled_events: ['merchant.onboarding.updated'] }],
})
export class CreateWebhookEndpointDto {
  @JSONSchema({ description: 'https URL resolving to public addresses (live mode).' })
  @IsString()
  @MaxLength(2048)
  url!: string;

  @JSONSchema({ description: 'Event types of the account\'s groupings, or `["*"]` for all of them.' })
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
