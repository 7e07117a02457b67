// GET /v1/request-logs[/stream]: the account's API requests (scope request_logs:read), and
// the gateway's way in (POST /internal/request-log, operator context only).

import { Body, Controller, Get, Headers, HttpCode, Inject, Post, Query, Res } from '@nestjs/common';
import type { AuthenticatedContext, RequestLogNote } from '@paygrid/contracts';
import {
  ApiError,
  Caller,
  digitsToNumber,
  JSONSchema,
  OperatorOnly,
  Operation,
  RequireScope,
} from '@paygrid/platform';
import Ajv, { type JSONSchemaType } from 'ajv';
import addFormats from 'ajv-formats';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
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

/**
 * One entry of a batch (typed against the contract's RequestLogNote, which the gateway's shipper
 * builds, so the two sides cannot drift), checked with
 * a compiled JSON Schema rather than a class-validator DTO
 * per entry: a batch holds up to 1,000 entries, one per API request answered, and
 * class-validator took about 11 µs of CPU per entry (bench/README.md, finding 19), on the same
 * cores as the requests in the embedded platform; Ajv takes well under one.
 */
const ENTRY_SCHEMA: JSONSchemaType<RequestLogNote> = {
  type: 'object',
  additionalProperties: false,
  required: ['account', 'livemode', 'request_id', 'method', 'path', 'status', 'duration_ms', 'created_at'],
  properties: {
    account: { type: 'string', pattern: '^acct_[0-9A-Za-z]{8,64}$' },
    livemode: { type: 'boolean' },
    request_id: { type: 'string', pattern: '^req_[0-9A-Za-z]{8,64}$' },
    method: { type: 'string', enum: ['GET', 'HEAD', 'POST', 'DELETE'] },
    path: { type: 'string', maxLength: 2048, pattern: '^/v1/' },
    status: { type: 'integer', minimum: 100, maximum: 599 },
    duration_ms: { type: 'integer', minimum: 0, maximum: 86_400_000 },
    created_at: { type: 'string', format: 'date-time' },
  },
};

const ajv = new Ajv({ allErrors: false, strict: true });
addFormats(ajv, ['date-time']);
const validEntry = ajv.compile(ENTRY_SCHEMA);

/** The entries, each checked; the first that fails is a 400 naming it. */
export function checkEntries(entries: unknown[]): RequestLogNote[] {
  entries.forEach((entry, index) => {
    if (validEntry(entry)) return;
    const [error] = validEntry.errors ?? [];
    if (!error) throw new ApiError('parameter_invalid', `entries[${index}] is invalid.`, `entries[${index}]`);
    const field =
      error.keyword === 'additionalProperties'
        ? String(error.params.additionalProperty)
        : error.keyword === 'required'
          ? String(error.params.missingProperty)
          : error.instancePath.slice(1);
    const param = field ? `entries[${index}][${field}]` : `entries[${index}]`;
    const code =
      error.keyword === 'additionalProperties'
        ? 'parameter_unknown'
        : error.keyword === 'required'
          ? 'parameter_missing'
          : 'parameter_invalid';
    throw new ApiError(code, `${param} ${error.message ?? 'is invalid'}.`, param);
  });
  return entries as RequestLogNote[];
}

export class RecordRequestsDto {
  @IsArray()
  @ArrayMaxSize(1000)
  entries!: unknown[];
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
    await this.log.record(checkEntries(body.entries));
  }
}
