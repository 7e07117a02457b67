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
