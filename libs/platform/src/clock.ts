// The clock is injected everywhere time matters, so the billing engine and test clocks can move it.

export interface Clock {
  now(): Date;
}

export const CLOCK = Symbol('CLOCK');

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests move by hand. */
export class ManualClock implements Clock {
  private current: number;
  constructor(start: Date | string = '2026-01-01T00:00:00Z') {
    this.current = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.current);
  }
  set(to: Date | string): void {
    this.current = new Date(to).getTime();
  }
  advance(ms: number): void {
    this.current += ms;
  }
}

// How the API writes a timestamp (docs/api.md §1: RFC 3339, UTC): toISOString's millisecond
// form. A column read through pg is a Date, through some drivers a string; both are accepted.

/** A timestamp that is always there (created_at, a computed period bound). */
export const iso = (d: Date | string): string => (d instanceof Date ? d : new Date(d)).toISOString();

/** A nullable timestamp column: null stays null. */
export const isoOrNull = (d: Date | string | null): string | null => (d ? iso(d) : null);
