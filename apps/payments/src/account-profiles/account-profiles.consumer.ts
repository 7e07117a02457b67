// The business profile's projection as a Nest consumer (InboxTransport, docs/adr/0002):
// account.updated of invoicing.events.v1, inside its inbox transaction.

import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { TOPICS, type EventEnvelope } from '@paygrid/contracts';
import { InboxController, inboxPattern, PROJECTION, type InboxContext } from '@paygrid/platform';
import { ACCOUNT_PROFILES_CONSUMER, applyAccountEvent, type AccountObject } from './account-profiles.feed';

@InboxController()
export class AccountProfilesConsumer {
  // A projection of one rare type on a busy topic: its fetches gather (PROJECTION's window).
  @EventPattern(
    inboxPattern(ACCOUNT_PROFILES_CONSUMER, TOPICS.invoicingEvents, 'account.updated'),
    PROJECTION,
  )
  handle(@Payload() event: EventEnvelope<AccountObject>, @Ctx() inbox: InboxContext) {
    return applyAccountEvent(event, inbox.tx);
  }
}
