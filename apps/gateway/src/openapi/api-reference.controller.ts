// The public API's description, without a key: the OpenAPI document at /v1/openapi.json and
// the human reference at /docs. A static route, so it takes precedence over the /v1/* proxy.

import { Controller, Get, Inject, Query, Res } from '@nestjs/common';
import { Public } from '@paygrid/platform';
import type { FastifyReply } from 'fastify';
import { API_REFERENCE_CSP, renderApiReference } from './api-reference.page';
import { renderSearch, searchIndex, type SearchEntry } from './api-reference.search';
import { OpenApiDocumentService, type OpenApiDocument } from './openapi.document';

@Controller()
@Public({ bypassGateway: true })
export class ApiReferenceController {
  private page?: { document: OpenApiDocument; html: string };
  private index?: { document: OpenApiDocument; entries: SearchEntry[] };

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

  @Get('docs/search')
  async search(@Query('q') q: unknown, @Res() reply: FastifyReply): Promise<void> {
    const document = await this.documents.get();
    if (this.index?.document !== document) this.index = { document, entries: searchIndex(document) };
    const html = renderSearch(document, this.index.entries, typeof q === 'string' ? q : '');
    void reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('content-security-policy', API_REFERENCE_CSP)
      .send(html);
  }
}
