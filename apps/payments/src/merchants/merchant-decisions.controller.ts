// Internal route for the operator's onboarding decisions. Only the gateway's admin API
// reaches it (operator context); it is not under /v1, and an API key's context gets 403.

import { Body, Controller, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { OperatorOnly } from '@paygrid/platform';
import { MerchantDecisionDto } from './merchant-decisions.dto';
import { MerchantDecisionsService } from './merchant-decisions.service';
import { serializeMerchant } from './merchants.service';

@Controller('internal/merchants')
@OperatorOnly()
export class MerchantDecisionsController {
  constructor(@Inject(MerchantDecisionsService) private readonly decisions: MerchantDecisionsService) {}

  @Post(':id/decision')
  @HttpCode(200)
  async decide(@Param('id') id: string, @Body() body: MerchantDecisionDto) {
    return serializeMerchant(await this.decisions.decide(id, body.decision, body.reason ?? null));
  }
}
