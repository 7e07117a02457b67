// The payments feed as a Nest consumer (InboxTransport, docs/adr/0002): every message of
// payments.events.v1, inside the inbox transaction that records it (payments-feed.ts).

import { Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { TOPICS, type EventEnvelope } from '@paygrid/contracts';
import { InboxController, inboxPattern, type InboxContext } from '@paygrid/platform';
import { InvoicesService } from '../invoices/invoices.service';
import { ReceiptsService } from '../receipts/receipts.service';
import { handlePaymentsEvent, PAYMENTS_FEED_CONSUMER, type FeedObject } from './payments-feed';

@InboxController()
export class PaymentsFeedConsumer {
  constructor(
    @Inject(InvoicesService) private readonly invoices: InvoicesService,
    @Inject(ReceiptsService) private readonly receipts: ReceiptsService,
  ) {}

  @EventPattern(inboxPattern(PAYMENTS_FEED_CONSUMER, TOPICS.paymentsEvents))
  handle(@Payload() event: EventEnvelope<FeedObject>, @Ctx() inbox: InboxContext) {
    return handlePaymentsEvent(event, inbox.tx, this.invoices, this.receipts);
  }
}
