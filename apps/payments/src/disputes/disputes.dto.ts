import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { JSONSchema, ListQuery } from '@paygrid/platform';
import type { DisputeStatus } from './dispute';

export class ListDisputesQuery extends ListQuery {
  @IsOptional()
  @JSONSchema({ description: 'Only disputes in this state.' })
  @IsIn(['needs_response', 'under_review', 'won', 'lost'])
  status?: DisputeStatus;

  @IsOptional()
  @JSONSchema({ description: 'Only disputes of this payment.' })
  @IsString()
  @Matches(/^txn_[0-9A-Za-z]{8,64}$/, { message: 'transaction must be a transaction id' })
  transaction?: string;
}

/** POST /v1/disputes/:id/test-helpers/update: move a sandbox dispute as its processor would. */
@JSONSchema({ examples: [{ status: 'won' }] })
export class UpdateSandboxDisputeDto {
  @JSONSchema({
    description: 'The new state: `under_review`, `won` or `lost` (docs/api.md Part 2, Disputes).',
  })
  @IsIn(['under_review', 'won', 'lost'])
  status!: 'under_review' | 'won' | 'lost';
}
