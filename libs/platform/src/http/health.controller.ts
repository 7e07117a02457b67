// Liveness (`GET /health`: the process answers) and readiness (`GET /ready`: its database and
// bus answer too). Both bypass the gateway check so orchestrators can probe them directly.

import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { RUNTIME, type ServiceRuntime } from '../runtime';
import { Public } from './context';

@Controller()
export class HealthController {
  constructor(@Inject(RUNTIME) private readonly runtime: ServiceRuntime) {}

  @Get('health')
  @Public({ bypassGateway: true })
  health(): { status: 'ok'; service: string } {
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
    const [database, bus] = await Promise.all([
      check(() => this.runtime.db.ping()),
      check(() => this.runtime.bus.ping()),
    ]);
    const ok = database === 'ok' && bus === 'ok';
    void reply.status(ok ? 200 : 503).send({
      status: ok ? 'ok' : 'unavailable',
      service: this.runtime.config.service,
      checks: { database, bus: `${bus} (${this.runtime.bus.transport})` },
    });
  }
}
