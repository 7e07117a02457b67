// Liveness (`GET /live`, and `GET /health` with the service's facts: the process answers) and readiness (`GET /ready`: its database and
// bus answer too; the gateway's /health shows each service's). Both bypass the gateway check so
// orchestrators can probe them directly. A service may add facts of its own (HEALTH_DETAILS).

import { Controller, Get, Inject, Optional, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { RUNTIME, type ServiceRuntime } from '../runtime';
import { Public } from './context';

/** A service's own facts for `GET /health` (payments: which accounts can take live payments). */
export const HEALTH_DETAILS = 'paygrid:health-details';
export type HealthDetails = () => Promise<Record<string, unknown>>;

@Controller()
export class HealthController {
  constructor(
    @Inject(RUNTIME) private readonly runtime: ServiceRuntime,
    @Optional() @Inject(HEALTH_DETAILS) private readonly details?: HealthDetails,
  ) {}

  @Get('health')
  @Public({ bypassGateway: true })
  async health(): Promise<Record<string, unknown>> {
    const details = this.details ? await this.details().catch(() => ({})) : {};
    return { status: 'ok', service: this.runtime.config.service, ...details };
  }

  @Get('live')
  @Public({ bypassGateway: true })
  live(): Record<string, unknown> {
    return { status: 'ok', service: this.runtime.config.service };
  }

  @Get('ready')
  @Public({ bypassGateway: true })
  async ready(@Res() reply: FastifyReply): Promise<void> {
    const check = async (probe: () => Promise<void>) => {
      try {
        await probe();
        return 'ok';
      } catch {
        return 'unavailable';
      }
    };
    const [database, bus, details] = await Promise.all([
      check(() => this.runtime.db.ping()),
      check(() => this.runtime.bus.ping()),
      this.details ? this.details().catch(() => ({})) : {},
    ]);
    const ok = database === 'ok' && bus === 'ok';
    void reply.status(ok ? 200 : 503).send({
      status: ok ? 'ok' : 'unavailable',
      service: this.runtime.config.service,
      checks: { database, bus: `${bus} (${this.runtime.bus.transport})` },
      ...details,
    });
  }
}
