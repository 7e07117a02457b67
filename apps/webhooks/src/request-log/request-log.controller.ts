// GET /v1/request-logs[/stream]: the account's API requests (scope request_logs:read), and
// the gateway's way in (POST /internal/request-log, operator context only).

import { Body, Controller, Get, Headers, HttpCode, Inject, Post, Query, Res } from '@nestjs/common';
import type { AuthenticatedContext } from '@paygrid/contracts';
import { Caller, digitsToNumber, JSONSchema, OperatorOnly, Operation, RequireScope } from '@paygrid/platform';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import type { FastifyReply } from 'fastify';
import { RequestLog } from './request-log';

export class ListRequestLogsQuery {
  @IsOptional()
  @JSONSchema({ description: 'How many requests to return, newest first, 1 to 100 (default 20).' })
  @Transform(digitsToNumber)
  @IsInt({ message: 'limit must be an integer between 1 and 100' })
  @Min(1, { message: 'limit must be an integer between 1 and 100' })
  @Max(100, { message: 'limit must be an integer between 1 and 100' })
  limit?: number;
}

export class StreamRequestLogsQuery {
  @IsOptional()
  @JSONSchema({
    description:
      'Resume after this position (the `id:` of the last frame received; the `Last-Event-ID` header also says it and wins). Default: from now.',
  })
  @IsString()
  @Matches(/^[0-9]{1,18}$/, { message: 'last_event_id must be a position from the stream' })
  last_event_id?: string;
}

class RequestLogEntryDto {
  @Matches(/^acct_[0-9A-Za-z]{8,64}$/) account!: string;
  @IsBoolean() livemode!: boolean;
  @Matches(/^req_[0-9A-Za-z]{8,64}$/) request_id!: string;
  @IsIn(['GET', 'HEAD', 'POST', 'DELETE']) method!: string;
  @IsString() @MaxLength(2048) @Matches(/^\/v1\//) path!: string;
  @IsInt() @Min(100) @Max(599) status!: number;
  @IsInt() @Min(0) @Max(86_400_000) duration_ms!: number;
  @IsISO8601({ strict: true }) created_at!: string;
}

export class RecordRequestsDto {
  @IsArray()
  @ArrayMaxSize(1000)
  @ValidateNested({ each: true })
  @Type(() => RequestLogEntryDto)
  entries!: RequestLogEntryDto[];
}

@Controller('v1/request-logs')
export class RequestLogsController {
  constructor(@Inject(RequestLog) private readonly log: RequestLog) {}

  @Get()
  @RequireScope('request_logs:read')
  @Operation({
    summary: 'List recent API requests',
    description:
      "The account's API requests of the last 24 hours in this mode, newest first: method, path (without its query string), status, latency and request id. Never a body, a key or card data.",
    response: 'RequestLogList',
  })
  list(@Caller() caller: AuthenticatedContext, @Query() query: ListRequestLogsQuery) {
    return this.log.list({ account: caller.account, livemode: caller.livemode }, query.limit ?? 20);
  }

  @Get('stream')
  @RequireScope('request_logs:read')
  @Operation({
    summary: 'Stream API requests',
    description:
      "The account's API requests in this mode as they are answered, as server-sent events (`text/event-stream`): one `id: <position>`, `event: request`, `data: <the RequestLog as JSON>` frame per request, in order; `: keepalive` comments in quiet times. Reconnect with `Last-Event-ID` to resume after the last frame. A connection ends after 10 minutes. Used by `paygrid logs tail`.",
    response: 'RequestLog',
    produces: 'text/event-stream',
  })
  async stream(
    @Caller() caller: AuthenticatedContext,
    @Query() query: StreamRequestLogsQuery,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Res() reply: FastifyReply,
  ) {
    this.log.admit();
    const header = lastEventId?.trim();
    const from = await this.log.position(
      header && /^[0-9]{1,18}$/.test(header) ? header : query.last_event_id,
    );
    reply.hijack();
    await this.log.serve(reply.raw, { account: caller.account, livemode: caller.livemode }, from);
  }
}

/** The gateway's batches of recorded requests (its admin forwarder signs an operator context). */
@Controller('internal/request-log')
@OperatorOnly()
export class RequestLogIngestController {
  constructor(@Inject(RequestLog) private readonly log: RequestLog) {}

  @Post()
  @HttpCode(204)
  async record(@Body() body: RecordRequestsDto): Promise<void> {
    await this.log.record(body.entries);
  }
}
