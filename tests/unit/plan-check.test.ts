// The plan suite's checker (tests/plans/support/plans.ts) on plans shaped like PostgreSQL's
// EXPLAIN (FORMAT JSON): it must fail what the suite exists to catch, and pass a keyset page.

import { checkPlan, type PlanNode } from '../plans/support/plans';

const rows = new Map([
  ['payments.checkout_submissions', 1_000_000],
  ['payments.merchants', 3],
]);

test('a Seq Scan of a large table fails; of a small one it does not', () => {
  const seq = (table: string) => ({
    'Node Type': 'Seq Scan',
    'Relation Name': table.split('.')[1],
    Schema: table.split('.')[0],
    'Plan Rows': 1,
    'Total Cost': 1,
  });
  expect(checkPlan(seq('payments.checkout_submissions'), rows).problems).toEqual([
    'Seq Scan on payments.checkout_submissions (1000000 rows)',
  ]);
  expect(checkPlan(seq('payments.merchants'), rows).problems).toEqual([]);
});

test('an index scan under a Limit is bounded; under a Sort or an Aggregate it is not', () => {
  const scan = {
    'Node Type': 'Index Scan',
    'Index Name': 'checkout_submissions_created',
    'Relation Name': 'checkout_submissions',
    Schema: 'payments',
    'Plan Rows': 33_000,
    'Total Cost': 1_700,
  };
  const limit = (child: PlanNode): PlanNode => ({
    'Node Type': 'Limit',
    'Plan Rows': 101,
    'Total Cost': 10,
    Plans: [child],
  });
  expect(checkPlan(limit(scan), rows).problems).toEqual([]);
  const sorted = limit({ 'Node Type': 'Sort', 'Plan Rows': 33_000, 'Total Cost': 2_000, Plans: [scan] });
  // The Sort's output is cut by the Limit; the scan under it is read to the end.
  expect(checkPlan(sorted, rows).problems).toEqual([
    'Index Scan using checkout_submissions_created on checkout_submissions estimated 33000 rows with no limit above it',
  ]);
  const counted = { 'Node Type': 'Aggregate', 'Plan Rows': 1, 'Total Cost': 1_800, Plans: [scan] };
  expect(checkPlan(counted, rows).problems).toEqual([
    'Index Scan using checkout_submissions_created on checkout_submissions estimated 33000 rows with no limit above it',
  ]);
});

test('a subquery under a Limit is planned on its own: only its own Limit bounds it', () => {
  const scan = {
    'Node Type': 'Index Scan',
    'Relation Name': 'checkout_submissions',
    Schema: 'payments',
    'Plan Rows': 50_000,
    'Total Cost': 2_000,
    'Parent Relationship': 'SubPlan',
  };
  const plan = {
    'Node Type': 'Limit',
    'Plan Rows': 1,
    'Total Cost': 1,
    Plans: [{ 'Node Type': 'Result', 'Plan Rows': 1, 'Total Cost': 1, Plans: [scan] }],
  };
  expect(checkPlan(plan, rows).problems).toHaveLength(1);
});
