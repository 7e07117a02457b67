import { IsInt, IsOptional, IsString, IsUrl, Matches, Max, MaxLength, Min } from 'class-validator';
import { JSONSchema } from '@paygrid/platform';

@JSONSchema({ examples: [{ return_url: 'https://shop.example/account' }, {}] })
export class CreatePortalSessionDto {
  @IsOptional()
  @JSONSchema({ description: 'Where the portal\'s "Return to ..." link leads (http or https).' })
  @IsUrl(
    { protocols: ['https', 'http'], require_protocol: true, require_tld: false },
    {
      message: 'return_url must be an http(s) URL',
    },
  )
  @MaxLength(2000)
  return_url?: string;

  @IsOptional()
  @JSONSchema({
    description: "The portal's language (a BCP 47 tag); default: the customer's `preferred_locales`.",
  })
  @IsString()
  @Matches(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8}){0,3}$/, { message: 'locale must be a BCP 47 tag such as de' })
  locale?: string;

  @IsOptional()
  @JSONSchema({ description: 'Seconds the link stays valid: 300 to 604800 (7 days); default 3600.' })
  @IsInt()
  @Min(300)
  @Max(604_800)
  expires_in?: number;
}
