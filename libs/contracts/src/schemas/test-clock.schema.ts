// The test clock object (docs/api.md §6), exactly as the invoicing service serialises it.

import { idOf, listOf, nullable, strictObject, timestamp, type FromContract } from './json-schema';

export const TestClockSchema = strictObject(
  {
    id: idOf('clock', 'Unique identifier.'),
    object: { type: 'string', const: 'test_clock' },
    livemode: { type: 'boolean', const: false },
    name: nullable({ type: 'string', maxLength: 200 }),
    frozen_time: timestamp('The time its customers live at.'),
    status: { type: 'string', enum: ['ready', 'advancing'] },
    advancing_to: nullable(timestamp('While advancing: the target time.')),
    deleted: { type: 'boolean' },
    created_at: timestamp('Creation time.'),
    updated_at: timestamp('Last change.'),
  },
  'A frozen time for sandbox customers; advancing it runs their billing up to the new time.',
);

export const TestClockListSchema = listOf('TestClock', '/v1/test-clocks');

/** The type of the test clock on the wire, derived from its schema: what `serializeTestClock` returns. */
export type TestClock = FromContract<typeof TestClockSchema>;
