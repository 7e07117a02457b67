// HTTP only: a processor's webhook, public (the processor has no API key; its signature, checked
// by the service with the connection's signing secret, is the authentication). The raw body is
// what the signature covers: the gateway forwards it unchanged (routing/proxy.ts) and the body
// parser keeps it (libs/platform http/bootstrap.ts), within the 1 MiB body limit.

import { Controller, Headers, HttpCode, Inject, Param, Post, Req } from '@nestjs/common';
import { Public } from '@paygrid/platform';
import type { FastifyRequest } from 'fastify';
import { ProcessorEventsService } from './processor-events.service';

@Controller('hooks')
export class ProcessorHooksController {
  constructor(@Inject(ProcessorEventsService) private readonly events: ProcessorEventsService) {}

  @Post(':processor/:connection')
  @Public()
  @HttpCode(200)
  receive(
    @Param('processor') processor: string,
    @Param('connection') connection: string,
    @Headers() headers: Record<string, string | undefined>,
    @Req() request: FastifyRequest & { rawBody?: Buffer },
  ) {
    return this.events.receive(processor, connection, request.rawBody, headers);
  }
}
