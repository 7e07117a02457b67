// The public API's description, without a key: the OpenAPI document at /v1/openapi.json and
// the human reference at /docs. A static route, so it takes precedence over the /v1/* proxy.

import { Controller, Get, Inject, Res } from '@nestjs/common';
import { Public } from '@paygrid/platform';
import type { FastifyReply } from 'fastify';
import { API_REFERENCE_CSP, renderApiReference } from './api-reference.page';
import { OpenApiDocumentService, type OpenApiDocument } from './openapi.document';

@Controller()
@Public({ bypassGateway: true })
export class ApiReferenceController {
  private page?: { document: OpenApiDocument; html: string };

  constructor(@Inject(OpenApiDocumentService) private readonly documents: OpenApiDocumentService) {}

  @Get('v1/openapi.json')
  document(): Promise<OpenApiDocument> {
    return this.documents.get();
  }

  @Get('docs')
  async reference(@Res() reply: FastifyReply): Promise<void> {
    const document = await this.documents.get();
    if (this.page?.document !== document) this.page = { document, html: renderApiReference(document) };
    void reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('content-security-policy', API_REFERENCE_CSP)
      .send(this.page.html);
  }
}
