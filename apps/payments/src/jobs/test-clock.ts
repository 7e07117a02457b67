// A clock tests can move, for the payments service only, and only when the operator starts
// it with PAYMENTS_TEST_CLOCK=true (refused with NODE_ENV=production). It is the injected
// clock plus an offset that only grows: moving it forward makes mandates fall due, links
// expire and pending intents look stale, exactly as the passing of real time would. Without
// the flag, neither this clock nor its route exists.
//
// Why a process clock and not the invoicing test clocks: the scheduler is a process-wide
// loop over every account's mandates; Stripe-style per-customer test clocks belong to the
// invoicing service, which payments never reads.

import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { IsInt, Max, Min } from 'class-validator';
import { OperatorOnly, type Clock } from '@paygrid/platform';
import { PaymentsJobs } from './payments-jobs';

export class OffsetClock implements Clock {
  private offsetMs = 0;
  constructor(private readonly base: Clock) {}
  now(): Date {
    return new Date(this.base.now().getTime() + this.offsetMs);
  }
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('a test clock only moves forward');
    this.offsetMs += ms;
  }
}

export class AdvanceClockDto {
  @IsInt({ message: 'ms must be an integer' })
  @Min(0, { message: 'ms must be at least 0' })
  @Max(10 * 366 * 86_400_000, { message: 'ms must be at most ten years' })
  ms!: number;
}

export const TEST_CLOCK = 'paygrid:payments-test-clock';

/**
 * Operator-only (signed operator context, never /v1). Registered only with the flag set.
 * `advance` moves the clock and then runs the background jobs once (due mandates, link
 * expiry, recovery), so a test observes their effect without waiting for the timer.
 */
@Controller('internal/test-clock')
@OperatorOnly()
export class TestClockController {
  constructor(
    @Inject(TEST_CLOCK) private readonly clock: OffsetClock,
    @Inject(PaymentsJobs) private readonly jobs: PaymentsJobs,
  ) {}

  @Post('advance')
  @HttpCode(200)
  async advance(@Body() body: AdvanceClockDto) {
    this.clock.advance(body.ms);
    const ran = await this.jobs.runOnce();
    return { object: 'test_clock', now: this.clock.now().toISOString(), ran };
  }
}
