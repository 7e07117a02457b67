// The customer directory as a Nest consumer (InboxTransport, docs/adr/0002): customer.created
// and customer.deleted of invoicing.events.v1, each inside its inbox transaction.

import { Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { TOPICS, type EventEnvelope } from '@paygrid/contracts';
import { InboxController, inboxPattern, PROJECTION, type InboxContext } from '@paygrid/platform';
import { CUSTOMER_DIRECTORY_CONSUMER, CustomerDirectory } from './customer-directory';

@InboxController()
export class CustomerDirectoryConsumer {
  constructor(@Inject(CustomerDirectory) private readonly directory: CustomerDirectory) {}

  // A projection of two rare types on a busy topic: its fetches gather (PROJECTION's window).
  @EventPattern(
    [
      inboxPattern(CUSTOMER_DIRECTORY_CONSUMER, TOPICS.invoicingEvents, 'customer.created'),
      inboxPattern(CUSTOMER_DIRECTORY_CONSUMER, TOPICS.invoicingEvents, 'customer.deleted'),
    ],
    PROJECTION,
  )
  handle(@Payload() event: EventEnvelope<{ id?: string }>, @Ctx() inbox: InboxContext) {
    return this.directory.apply(event, inbox.tx);
  }
}
