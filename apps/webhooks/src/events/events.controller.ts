import { Controller, Get, Headers, Inject, Param, Query, Res } from '@nestjs/common';
import type { AuthenticatedContext } from '@paygrid/contracts';
import { Caller, JSONSchema, ListQuery, Operation, RequireScope } from '@paygrid/platform';
import { IsOptional, IsString, Matches } from 'class-validator';
import type { FastifyReply } from 'fastify';
import { EventLog } from './event-log';
import { EventStream } from './event-stream';

export class ListEventsQuery extends ListQuery {
  @IsOptional()
  @JSONSchema({ description: 'An event type, or a family such as `invoice.*`.' })
  @IsString()
  @Matches(/^[a-z_]+(\.[a-z_]+)*(\.\*)?$/, {
    message: 'type must be an event type such as invoice.paid or invoice.*',
  })
  type?: string;
}

export class StreamEventsQuery {
  @IsOptional()
  @JSONSchema({ description: 'Only these event types, comma-separated (default: every type).' })
  @IsString()
  @Matches(/^[a-z_]+(\.[a-z_]+)+(,[a-z_]+(\.[a-z_]+)+){0,49}$/, {
    message: 'types must be event types separated by commas, such as payment.succeeded,refund.created',
  })
  types?: string;

  @IsOptional()
  @JSONSchema({
    description:
      'Resume right after this event (what the `Last-Event-ID` header also says; the header wins). Default: from now.',
  })
  @IsString()
  @Matches(/^evt_[0-9A-Za-z]{8,64}$/, { message: 'last_event_id must be an event id' })
  last_event_id?: string;
}

@Controller('v1/events')
export class EventsController {
  constructor(
    @Inject(EventLog) private readonly events: EventLog,
    @Inject(EventStream) private readonly streams: EventStream,
  ) {}

  @Get()
  @RequireScope('events:read')
  @Operation({
    summary: 'List events',
    description: 'Newest first; kept for 30 days at least.',
    response: 'EventList',
  })
  list(@Caller() caller: AuthenticatedContext, @Query() query: ListEventsQuery) {
    return this.events.list({ account: caller.account, livemode: caller.livemode }, query);
  }

  @Get('stream')
  @RequireScope('events:read')
  @Operation({
    summary: 'Stream events',
    description:
      "The account's events as they are recorded, as server-sent events (`text/event-stream`): one `id: <event id>`, `event: <type>`, `data: <the event as JSON>` frame per event, in log order, each once; `: keepalive` comments in quiet times. Reconnect with `Last-Event-ID` to resume after the last event received, without loss or repeat. A connection ends after 10 minutes; reconnect. Used by `paygrid listen`.",
    response: 'Event',
    produces: 'text/event-stream',
    errors: ['resource_missing'],
  })
  async stream(
    @Caller() caller: AuthenticatedContext,
    @Query() query: StreamEventsQuery,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Res() reply: FastifyReply,
  ) {
    const tenant = { account: caller.account, livemode: caller.livemode };
    this.streams.admit();
    const from = await this.streams.position(tenant, lastEventId?.trim() || query.last_event_id);
    reply.hijack();
    await this.streams.serve(reply.raw, tenant, from, query.types ? query.types.split(',') : null);
  }

  @Get(':id')
  @RequireScope('events:read')
  @Operation({
    summary: 'Retrieve an event',
    description: 'Any event of the last 30 days at least, exactly as it was delivered to webhook endpoints.',
    response: 'Event',
  })
  get(@Caller() caller: AuthenticatedContext, @Param('id') id: string) {
    return this.events.get({ account: caller.account, livemode: caller.livemode }, id);
  }
}
