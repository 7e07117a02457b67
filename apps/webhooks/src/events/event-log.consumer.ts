// The event log as a Nest consumer (InboxTransport, docs/adr/0002): every event of every
// *.events.v1 topic, one consumer group, each inside its inbox transaction (event-log.ts).

import { Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { EVENT_TOPICS, type EventEnvelope } from '@paygrid/contracts';
import { InboxController, inboxPatterns, type InboxContext } from '@paygrid/platform';
import { EVENT_LOG_CONSUMER, EventLog } from './event-log';

@InboxController()
export class EventLogConsumer {
  constructor(@Inject(EventLog) private readonly eventLog: EventLog) {}

  @EventPattern(inboxPatterns(EVENT_LOG_CONSUMER, EVENT_TOPICS))
  handle(@Payload() event: EventEnvelope, @Ctx() inbox: InboxContext) {
    return this.eventLog.record(event, inbox.tx);
  }
}
