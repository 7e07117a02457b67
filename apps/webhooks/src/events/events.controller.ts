import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import type { AuthenticatedContext } from '@paygrid/contracts';
import { Caller, JSONSchema, ListQuery, Operation, RequireScope } from '@paygrid/platform';
import { IsOptional, IsString, Matches } from 'class-validator';
import { EventLog } from './event-log';

export class ListEventsQuery extends ListQuery {
  @IsOptional()
  @JSONSchema({ description: 'An event type, or a family such as `invoice.*`.' })
  @IsString()
  @Matches(/^[a-z_]+(\.[a-z_]+)*(\.\*)?$/, {
    message: 'type must be an event type such as invoice.paid or invoice.*',
  })
  type?: string;
}

@Controller('v1/events')
export class EventsController {
  constructor(@Inject(EventLog) private readonly events: EventLog) {}

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
