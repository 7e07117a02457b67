// payments.commands.v1 as a Nest consumer (InboxTransport, docs/adr/0002). OWN_TRANSACTIONS:
// a charge calls the processor between its two transactions, so the handler claims the inbox
// itself in the first (MandateCharges.handleCommand) instead of running inside one.

import { Inject } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { TOPICS } from '@paygrid/contracts';
import { InboxController, inboxPattern, OWN_TRANSACTIONS } from '@paygrid/platform';
import { COMMANDS_CONSUMER } from './mandate-commands';
import { MandatesService } from './mandates.service';

@InboxController()
export class MandateCommandsConsumer {
  constructor(@Inject(MandatesService) private readonly mandates: MandatesService) {}

  @EventPattern(inboxPattern(COMMANDS_CONSUMER, TOPICS.paymentsCommands), OWN_TRANSACTIONS)
  handle(@Payload() command: unknown) {
    return this.mandates.acceptCommand(command);
  }
}
