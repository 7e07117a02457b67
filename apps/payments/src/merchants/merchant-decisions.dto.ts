import { IsIn, IsOptional, IsString, Length } from 'class-validator';
import { OPERATOR_DECISIONS, type OperatorDecision } from './merchant-decisions.service';

export class MerchantDecisionDto {
  @IsIn(OPERATOR_DECISIONS, { message: `decision must be one of ${OPERATOR_DECISIONS.join(', ')}` })
  decision: OperatorDecision;

  @IsOptional()
  @IsString()
  @Length(1, 500)
  reason?: string;
}
