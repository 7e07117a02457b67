// The gateway's health: `GET /health` reports the gateway and every service it routes to (503
// while one is down: for people and monitors, never a liveness probe, or an orchestrator
// would restart healthy gateways during a service's outage); `GET /ready` is the gateway's own
// readiness (its database); `GET /live` answers while the process does (liveness).

import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { ServiceName } from '@paygrid/contracts';
import { Public, RUNTIME, type ServiceRuntime } from '@paygrid/platform';
import type { FastifyReply } from 'fastify';
import { INSTALLED_SERVICES, UPSTREAM } from './tokens';
import type { Upstream } from './routing/upstream';

@Controller()
@Public({ bypassGateway: true })
export class GatewayHealthController {
  constructor(
    @Inject(RUNTIME) private readonly runtime: ServiceRuntime,
    @Inject(UPSTREAM) private readonly upstream: Upstream,
    @Inject(INSTALLED_SERVICES) private readonly services: readonly ServiceName[],
  ) {}

  @Get('health')
  async health(@Res() reply: FastifyReply): Promise<void> {
    const services: Record<string, unknown> = {};
    await Promise.all(
      this.services.map(async (name) => {
        try {
          const { status, body } = await this.upstream.health(name);
          services[name] = status === 200 ? body : { status: 'unavailable', detail: body };
        } catch {
          services[name] = { status: 'unavailable' };
        }
      }),
    );
    let gateway = 'ok';
    try {
      await this.runtime.db.ping();
    } catch {
      gateway = 'unavailable';
    }
    const ok =
      gateway === 'ok' && Object.values(services).every((s) => (s as { status?: string }).status === 'ok');
    void reply.status(ok ? 200 : 503).send({
      status: ok ? 'ok' : 'degraded',
      mode: this.runtime.config.mode,
      services: { gateway: { status: gateway, service: 'gateway' }, ...services },
    });
  }

  @Get('live')
  live(): { status: 'ok'; service: 'gateway' } {
    return { status: 'ok', service: 'gateway' };
  }

  @Get('ready')
  async ready(@Res() reply: FastifyReply): Promise<void> {
    try {
      await this.runtime.db.ping();
      void reply.send({ status: 'ok', service: 'gateway' });
    } catch {
      void reply.status(503).send({ status: 'unavailable', service: 'gateway' });
    }
  }
}
