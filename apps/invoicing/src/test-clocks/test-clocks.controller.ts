// HTTP only: validate, call the service, serialise.

import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import type { AuthenticatedContext } from '@paygrid/contracts';
import {
  Caller,
  ListQuery,
  Operation,
  OwnIdempotency,
  RequestTx,
  RequireScope,
  tenantOf,
  type Tx,
  listOf,
} from '@paygrid/platform';
import { AdvanceTestClockDto, CreateTestClockDto } from './test-clocks.dto';
import { serializeTestClock, TestClocksService } from './test-clocks.service';

@Controller('v1/test-clocks')
export class TestClocksController {
  constructor(@Inject(TestClocksService) private readonly clocks: TestClocksService) {}

  @Post()
  @HttpCode(200)
  @RequireScope('test_clocks:write')
  @Operation({
    summary: 'Create a test clock',
    description:
      'Sandbox only: a live key gets 400 `test_mode_only`. Customers created with `test_clock` live at its `frozen_time`, and so do their subscriptions and invoices.',
    response: 'TestClock',
    errors: ['test_mode_only'],
  })
  async create(
    @Caller() caller: AuthenticatedContext,
    @Body() body: CreateTestClockDto,
    @RequestTx() tx: Tx | undefined,
  ) {
    return serializeTestClock(await this.clocks.create(tenantOf(caller), body, tx));
  }

  @Get()
  @RequireScope('test_clocks:read')
  @Operation({
    summary: 'List test clocks',
    description: 'Newest first; deleted clocks are left out. Live keys see none.',
    response: 'TestClockList',
  })
  async list(@Caller() caller: AuthenticatedContext, @Query() query: ListQuery) {
    const page = await this.clocks.list(tenantOf(caller), query);
    return listOf(page, serializeTestClock);
  }

  @Get(':id')
  @RequireScope('test_clocks:read')
  @Operation({
    summary: 'Retrieve a test clock',
    description: 'The clock, `ready` or `advancing`.',
    response: 'TestClock',
  })
  async get(@Caller() caller: AuthenticatedContext, @Param('id') id: string) {
    return serializeTestClock(await this.clocks.get(tenantOf(caller), id));
  }

  /** Not in the request's transaction: it waits on outcomes that only its own commits cause. */
  @Post(':id/advance')
  @HttpCode(200)
  @OwnIdempotency()
  @RequireScope('test_clocks:write')
  @Operation({
    summary: 'Advance a test clock',
    description:
      'Moves the clock forward to `frozen_time` (after the current one; else 400) and runs, in time order, everything due for its customers up to then: trial_will_end, trial ends, renewals (invoice created, finalized, charged or sent), dunning retries at +1, +3, +5, +7 days, past_due and the end state, overdue invoices, with their events. Between steps it waits (bounded, 15 s) for the payment outcomes the charges cause. Answers once the clock is `ready` again. A second advance while one runs: 409 `invalid_state_transition`. `Idempotency-Key` is not honoured here: each step commits on its own, so that the charges it requests go out and their outcomes come back while it waits, and so that a second advance sees this one running; a retry of an advance that completed is 400, its `frozen_time` being no longer after the clock time.',
    response: 'TestClock',
    errors: ['invalid_state_transition'],
  })
  async advance(
    @Caller() caller: AuthenticatedContext,
    @Param('id') id: string,
    @Body() body: AdvanceTestClockDto,
  ) {
    return serializeTestClock(await this.clocks.advance(tenantOf(caller), id, body.frozen_time));
  }

  @Delete(':id')
  @RequireScope('test_clocks:write')
  @Operation({
    summary: 'Delete a test clock',
    description:
      "Deletes the clock and cancels its customers' subscriptions (no events). 409 while it is advancing.",
    response: 'TestClock',
    errors: ['invalid_state_transition'],
  })
  async remove(@Caller() caller: AuthenticatedContext, @Param('id') id: string) {
    return serializeTestClock(await this.clocks.remove(tenantOf(caller), id));
  }
}
