// `GET /openapi.json` on every service: its fragment of the public API, which the gateway
// merges into `/v1/openapi.json`. Internal, but not secret, so it needs no gateway context.

import { Controller, Get, Inject, type Type } from '@nestjs/common';
import { HttpAdapterHost, ModulesContainer } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { Public } from '../http/context';
import { RUNTIME, type ServiceRuntime } from '../runtime';
import { buildOpenApiFragment } from './openapi.builder';
import type { OpenApiFragment } from './openapi.types';
import { registeredRoutes } from './registered-routes';

@Controller()
export class OpenApiController {
  private fragment?: OpenApiFragment;

  constructor(
    @Inject(RUNTIME) private readonly runtime: ServiceRuntime,
    @Inject(ModulesContainer) private readonly modules: ModulesContainer,
    @Inject(HttpAdapterHost) private readonly adapter: HttpAdapterHost,
  ) {}

  @Get('openapi.json')
  @Public({ bypassGateway: true })
  openapi(): OpenApiFragment {
    // Built on first use, when every module's routes are registered; they never change after.
    this.fragment ??= buildOpenApiFragment(this.controllers(), {
      title: this.runtime.config.service,
      registeredRoutes: registeredRoutes(this.adapter.httpAdapter.getInstance<FastifyInstance>()),
    });
    return this.fragment;
  }

  private controllers(): Type[] {
    const found = new Set<Type>();
    for (const module of this.modules.values()) {
      for (const wrapper of module.controllers.values()) {
        if (typeof wrapper.metatype === 'function') found.add(wrapper.metatype as Type);
      }
    }
    return [...found];
  }
}
