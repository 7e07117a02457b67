import { IsIn, IsInt, IsObject, IsString, Matches, Max, Min } from 'class-validator';
import { IsMetadata, IsOmittable, JSONSchema } from '@paygrid/platform';

@JSONSchema({
  examples: [{ transaction: 'txn_4fQk2nT8bW1xZc9LmP0aRs7e', amount: 500, reason: 'requested_by_customer' }],
})
export class CreateRefundDto {
  @JSONSchema({ description: 'The succeeded payment to refund.' })
  @IsString()
  @Matches(/^txn_[0-9A-Za-z]{8,64}$/, { message: 'transaction must be a transaction id' })
  transaction!: string;

  @IsOmittable()
  @JSONSchema({ description: 'Minor units; default: all that remains refundable.' })
  @IsInt({ message: 'amount must be an integer number of minor units' })
  @Min(1, { message: 'amount must be at least 1' })
  @Max(99_999_999_999, { message: 'amount must be at most 99999999999' })
  amount?: number;

  @IsOmittable()
  @IsIn(['duplicate', 'fraudulent', 'requested_by_customer'])
  reason?: 'duplicate' | 'fraudulent' | 'requested_by_customer';

  @IsOmittable() @IsObject() @IsMetadata() metadata?: Record<string, string>;
}
