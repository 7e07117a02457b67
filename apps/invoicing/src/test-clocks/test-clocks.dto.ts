import { Transform } from 'class-transformer';
import { IsString, Length } from 'class-validator';
import { IsOmittable, JSONSchema } from '@paygrid/platform';
import { dateInput, IsDateValue, toDate } from '../subscriptions/subscriptions.dto';

@JSONSchema({ examples: [{ frozen_time: '2028-01-31T00:00:00Z', name: 'Annual plan renewal' }] })
export class CreateTestClockDto {
  @JSONSchema(dateInput('The initial time (RFC 3339 or unix seconds).'))
  @Transform(toDate)
  @IsDateValue()
  frozen_time!: Date;

  @IsOmittable() @IsString() @Length(1, 200) name?: string;
}

@JSONSchema({ examples: [{ frozen_time: '2028-03-01T00:00:00Z' }] })
export class AdvanceTestClockDto {
  @JSONSchema(dateInput("The new time: after the clock's current one."))
  @Transform(toDate)
  @IsDateValue()
  frozen_time!: Date;
}
