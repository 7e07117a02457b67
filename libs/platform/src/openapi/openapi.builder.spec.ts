import 'reflect-metadata';
import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsObject, IsOptional, IsString, Min, ValidateNested } from 'class-validator';
import { Public, RequireScope } from '../http/context';
import { ListQuery } from '../http/pagination';
import { IsMetadata } from '../http/validators';
import { buildOpenApiFragment, tagOf } from './openapi.builder';
import type { ResponseObject } from './openapi.types';
import { Operation } from './operation.decorator';
import { JSONSchema } from './request-schemas';

class LineDto {
  @IsString() description: string;
  @IsInt() @Min(1) quantity: number;
}

@JSONSchema({ examples: [{ name: 'Widget', lines: [{ description: 'A', quantity: 1 }] }] })
class CreateWidgetDto {
  @IsString() name: string;
  @IsOptional() @IsIn(['small', 'large']) size?: string;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => LineDto) lines?: LineDto[];
  @IsOptional() @IsObject() @IsMetadata() metadata?: Record<string, string>;
}

class ListWidgetsQuery extends ListQuery {
  @IsOptional() @IsString() colour?: string;
}

@Controller('v1/widget-boxes')
class WidgetsController {
  @Post()
  @HttpCode(200)
  @RequireScope('merchants:write')
  @Operation({
    summary: 'Create',
    description: 'Makes one.',
    response: 'Merchant',
    errors: ['merchant_not_active'],
  })
  create(@Body() _body: CreateWidgetDto) {}

  @Get()
  @RequireScope('merchants:read')
  @Operation({ summary: 'List', description: 'Lists.', response: 'MerchantList' })
  list(@Query() _query: ListWidgetsQuery) {}

  @Get(':id')
  @RequireScope('merchants:read')
  @Operation({ summary: 'Get', description: 'One.', response: 'Merchant', operationId: 'widgets.fetch' })
  get(@Param('id') _id: string) {}

  @Get(':id/feed')
  @RequireScope('merchants:read')
  @Operation({
    summary: 'Feed',
    description: 'Streams.',
    response: 'Merchant',
    produces: 'text/event-stream',
  })
  feed(@Param('id') _id: string) {}

  @Post(':id/archive')
  @RequireScope('merchants:write')
  @Operation({ summary: 'Archive', description: 'Archives.', response: 'Merchant' })
  archive(@Param('id') _id: string) {}
}

@Controller()
class PagesController {
  @Get('pay/:id')
  page() {}

  @Get('v1/widget-boxes/public/ping')
  @Public()
  ping() {}
}

const fragment = () =>
  buildOpenApiFragment([WidgetsController, PagesController], {
    title: 'payments',
    registeredRoutes: ['GET /v1/widget-boxes', 'POST /v1/widget-boxes'],
  });

describe('buildOpenApiFragment', () => {
  it('documents the /v1 routes only, with {param} paths, and skips public ones', () => {
    const { paths } = fragment();
    expect(Object.keys(paths)).toEqual([
      '/v1/widget-boxes',
      '/v1/widget-boxes/{id}',
      '/v1/widget-boxes/{id}/archive',
      '/v1/widget-boxes/{id}/feed',
    ]);
    expect(Object.keys(paths['/v1/widget-boxes'])).toEqual(['post', 'get']);
  });

  it('takes operation id, summary, tag and x-required-scope from the handler', () => {
    const { paths } = fragment();
    expect(paths['/v1/widget-boxes'].post).toMatchObject({
      operationId: 'widgetBoxes.create',
      summary: 'Create',
      description: 'Makes one.',
      tags: ['Widget boxes'],
      'x-required-scope': 'merchants:write',
    });
    expect(paths['/v1/widget-boxes/{id}'].get?.operationId).toBe('widgets.fetch');
    expect(tagOf('/v1/payment-links/{id}')).toBe('Payment links');
  });

  it('describes the body from the DTO: a component, unknown properties forbidden, nested DTOs too', () => {
    const { paths, components } = fragment();
    expect(paths['/v1/widget-boxes'].post?.requestBody).toEqual({
      required: true,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/CreateWidget' } } },
    });
    const schema = components.schemas.CreateWidget;
    expect(schema).toMatchObject({
      type: 'object',
      required: ['name'],
      additionalProperties: false,
      examples: [{ name: 'Widget', lines: [{ description: 'A', quantity: 1 }] }],
      properties: {
        name: { type: 'string' },
        // @IsOptional() lets null through the validation pipe, so the document says so.
        size: { type: ['string', 'null'], enum: ['small', 'large', null] },
        lines: { type: ['array', 'null'], items: { $ref: '#/components/schemas/Line' } },
        metadata: { anyOf: [{ $ref: '#/components/schemas/Metadata' }, { type: 'null' }] },
      },
    });
    expect(components.schemas.Line).toMatchObject({
      required: ['description', 'quantity'],
      additionalProperties: false,
      properties: { quantity: { type: 'integer', minimum: 1 } },
    });
    // Shared schemas the operations and DTOs refer to come from @paygrid/contracts.
    expect(Object.keys(components.schemas)).toEqual(
      expect.arrayContaining(['Merchant', 'MerchantList', 'Metadata', 'RangeFilter']),
    );
  });

  it('flattens a query DTO into parameters, nested ones as deepObject', () => {
    const parameters = fragment().paths['/v1/widget-boxes'].get?.parameters ?? [];
    const byName = Object.fromEntries(parameters.map((p) => ('name' in p ? [p.name, p] : ['', p])));
    expect(Object.keys(byName).sort()).toEqual([
      'colour',
      'created',
      'ending_before',
      'limit',
      'starting_after',
    ]);
    expect(byName.limit).toMatchObject({
      in: 'query',
      required: false,
      schema: { type: 'integer', maximum: 100 },
    });
    expect(byName.limit.description).toMatch(/1 to 100/);
    expect(byName.created).toMatchObject({
      style: 'deepObject',
      explode: true,
      schema: { $ref: '#/components/schemas/RangeFilter' },
    });
    // A query string cannot carry a JSON null: query DTOs and the ones nested in them say nothing of it.
    expect(byName.colour.schema).toEqual({ type: 'string' });
    expect(JSON.stringify(fragment().components.schemas.RangeFilter)).not.toContain('null');
  });

  it('describes a server-sent event stream event by event, data as the response schema in JSON', () => {
    const content = (fragment().paths['/v1/widget-boxes/{id}/feed'].get?.responses['200'] as ResponseObject)
      .content;
    expect(content).toEqual({
      'text/event-stream': {
        schema: expect.objectContaining({
          type: 'object',
          required: ['id', 'event', 'data'],
          additionalProperties: false,
        }),
      },
    });
    expect(content?.['text/event-stream'].schema.properties.data).toEqual({
      type: 'string',
      contentMediaType: 'application/json',
      contentSchema: { $ref: '#/components/schemas/Merchant' },
    });
  });

  it('lists path parameters, the success status (@HttpCode, else 201 for POST) and the errors', () => {
    const { paths } = fragment();
    const get = paths['/v1/widget-boxes/{id}'].get;
    expect(get?.parameters).toEqual([
      {
        name: 'id',
        in: 'path',
        required: true,
        description: 'The id of the object.',
        schema: { type: 'string' },
      },
    ]);
    expect(Object.keys(get?.responses ?? {})).toEqual([
      '200',
      '401',
      '403',
      '404',
      '429',
      '500',
      '503',
      '504',
    ]);
    expect(get?.responses['404']).toEqual({ $ref: '#/components/responses/NotFound' });
    // A POST with a body: validation, objects it names (404), size, media type, idempotency,
    // plus what it declares (409).
    expect(Object.keys(paths['/v1/widget-boxes'].post?.responses ?? {})).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '409',
      '413',
      '415',
      '422',
      '429',
      '500',
      '503',
      '504',
    ]);
    expect(Object.keys(paths['/v1/widget-boxes/{id}/archive'].post?.responses ?? {})).toContain('201');
    // A paginated list can 404 on a foreign cursor.
    expect(Object.keys(paths['/v1/widget-boxes'].get?.responses ?? {})).toContain('404');
  });

  it('passes the registered routes through, sorted', () => {
    expect(fragment()['x-registered-routes']).toEqual(['GET /v1/widget-boxes', 'POST /v1/widget-boxes']);
  });

  it('refuses an API route without @Operation or without a scope', () => {
    @Controller('v1/merchants')
    class Undocumented {
      @Get()
      @RequireScope('merchants:read')
      list() {}
    }
    expect(() => buildOpenApiFragment([Undocumented], { title: 'payments' })).toThrow(/without @Operation/);

    @Controller('v1/merchants')
    class Unscoped {
      @Get()
      @Operation({ summary: 'List', description: 'x', response: 'MerchantList' })
      list() {}
    }
    expect(() => buildOpenApiFragment([Unscoped], { title: 'payments' })).toThrow(/no @RequireScope/);
  });

  it('refuses a path parameter the handler does not take', () => {
    @Controller('v1/merchants')
    class Sloppy {
      @Get(':id')
      @RequireScope('merchants:read')
      @Operation({ summary: 'Get', description: 'x', response: 'Merchant' })
      get() {}
    }
    expect(() => buildOpenApiFragment([Sloppy], { title: 'payments' })).toThrow(/path parameters/);
  });
});
