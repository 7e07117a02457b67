import { canMove, DISPUTE_TRANSITIONS, isClosed, type DisputeStatus } from './dispute';

describe('dispute transitions', () => {
  const all = Object.keys(DISPUTE_TRANSITIONS) as DisputeStatus[];

  it('only move forward: won and lost are final, nothing goes back to needs_response', () => {
    expect(all.filter(isClosed).sort()).toEqual(['lost', 'won']);
    for (const from of all) expect(canMove(from, 'needs_response')).toBe(false);
    for (const from of all) expect(canMove(from, from)).toBe(false);
    expect(canMove('needs_response', 'under_review')).toBe(true);
    expect(canMove('under_review', 'lost')).toBe(true);
    expect(canMove('won', 'lost')).toBe(false);
    expect(canMove('lost', 'under_review')).toBe(false);
  });
});
