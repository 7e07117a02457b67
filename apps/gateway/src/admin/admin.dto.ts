import { GROUPINGS, type Grouping } from '@paygrid/contracts';
import { Type } from 'class-transformer';
import {
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsDate,
  IsIn,
  IsOptional,
  IsString,
  Length,
  MaxLength,
} from 'class-validator';

export class CreateAccountDto {
  @IsString()
  @Length(1, 200)
  name: string;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayUnique()
  @IsIn(GROUPINGS, { each: true, message: `groupings must contain only ${GROUPINGS.join(', ')}` })
  groupings: Grouping[];
}

export class CreateKeyDto {
  @IsIn(['test', 'live'])
  mode: 'test' | 'live';

  @IsIn(['secret', 'restricted'])
  kind: 'secret' | 'restricted';

  @IsOptional()
  @IsArray()
  @ArrayUnique()
  @IsString({ each: true })
  scopes?: string[];

  @IsOptional()
  @IsString()
  @MaxLength(200)
  name?: string;

  @IsOptional()
  @Type(() => Date)
  @IsDate()
  expires_at?: Date;
}
