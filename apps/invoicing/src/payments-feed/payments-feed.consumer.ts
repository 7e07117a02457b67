// The payments feed as a Nest consumer (InboxTransport, docs/adr/0002): the messages of
// payments.events.v1 whose types it acts on (PAYMENTS_FEED_TYPES), each inside the inbox
// transaction that records it (payments-feed.ts).

import { Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { TOPICS, type EventEnvelope } from '@paygrid/contracts';
import { InboxController, inboxPattern, type InboxContext } from '@paygrid/platform';
import { InvoicesService } from '../invoices/invoices.service';
import { ReceiptsService } from '../receipts/receipts.service';
import {
  handlePaymentsEvent,
  PAYMENTS_FEED_CONSUMER,
  PAYMENTS_FEED_TYPES,
  type FeedObject,
} from './payments-feed';

@InboxController()
export class PaymentsFeedConsumer {
  constructor(
    @Inject(InvoicesService) private readonly invoices: InvoicesService,
    @Inject(ReceiptsService) private readonly receipts: ReceiptsService,
  ) {}

  @EventPattern(
    PAYMENTS_FEED_TYPES.map((type) => inboxPattern(PAYMENTS_FEED_CONSUMER, TOPICS.paymentsEvents, type)),
  )
  handle(@Payload() event: EventEnvelope<FeedObject>, @Ctx() inbox: InboxContext) {
    return handlePaymentsEvent(event, inbox.tx, this.invoices, this.receipts);
  }
}
