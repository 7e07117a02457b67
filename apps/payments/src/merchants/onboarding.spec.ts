import {
  canTransition,
  REQUIRED_DETAILS,
  requirementsDue,
  sandboxDecision,
  TRANSITIONS,
  type OnboardingStatus,
} from './onboarding';

const STATUSES: OnboardingStatus[] = ['pending', 'in_review', 'active', 'rejected', 'restricted'];

const ALLOWED: [OnboardingStatus, OnboardingStatus][] = [
  ['pending', 'in_review'],
  ['in_review', 'active'],
  ['in_review', 'rejected'],
  ['active', 'restricted'],
  ['restricted', 'active'],
];

describe('onboarding transitions', () => {
  it('has an entry for every status', () => {
    expect(Object.keys(TRANSITIONS).sort()).toEqual([...STATUSES].sort());
  });

  it.each(ALLOWED)('allows %s -> %s', (from, to) => {
    expect(canTransition(from, to)).toBe(true);
  });

  it('refuses every other pair, including staying in place', () => {
    const allowed = new Set(ALLOWED.map(([f, t]) => `${f}->${t}`));
    let refused = 0;
    for (const from of STATUSES) {
      for (const to of STATUSES) {
        if (allowed.has(`${from}->${to}`)) continue;
        expect({ from, to, allowed: canTransition(from, to) }).toEqual({ from, to, allowed: false });
        refused++;
      }
    }
    expect(refused).toBe(STATUSES.length * STATUSES.length - ALLOWED.length);
  });

  it.each([
    ['pending', 'active'],
    ['pending', 'rejected'],
    ['in_review', 'pending'],
    ['active', 'pending'],
    ['active', 'rejected'],
    ['restricted', 'rejected'],
    ['rejected', 'active'],
    ['rejected', 'in_review'],
  ] as [OnboardingStatus, OnboardingStatus][])('refuses %s -> %s', (from, to) => {
    expect(canTransition(from, to)).toBe(false);
  });

  it('rejected is final', () => {
    expect(TRANSITIONS.rejected).toEqual([]);
    for (const to of STATUSES) expect(canTransition('rejected', to)).toBe(false);
  });
});

describe('requirementsDue', () => {
  const complete = {
    business_name: 'Ada Ltd',
    email: 'ada@example.com',
    country: 'GB',
    default_currency: 'gbp',
    business_type: 'company',
  };

  it('lists every required detail for an empty merchant, in order', () => {
    expect(requirementsDue({})).toEqual([...REQUIRED_DETAILS]);
    expect(REQUIRED_DETAILS).toEqual([
      'business_name',
      'email',
      'country',
      'default_currency',
      'business_type',
    ]);
  });

  it('is empty when everything is provided', () => {
    expect(requirementsDue(complete)).toEqual([]);
  });

  it('lists only what is missing; null and empty strings count as missing', () => {
    expect(requirementsDue({ ...complete, email: null })).toEqual(['email']);
    expect(requirementsDue({ ...complete, country: '' })).toEqual(['country']);
    expect(requirementsDue({ business_name: 'Ada Ltd', business_type: 'company' })).toEqual([
      'email',
      'country',
      'default_currency',
    ]);
  });
});

describe('sandboxDecision', () => {
  it.each(['reject@example.com', 'REJECT@example.com', 'Reject@Example.COM'])('rejects %s', (email) => {
    const decision = sandboxDecision(email);
    expect(decision.status).toBe('rejected');
    expect(decision.reason).toMatch(/sandbox/i);
  });

  it.each([
    'ada@example.com',
    'rejected@example.com',
    'reject.me@example.com',
    'reject+1@example.com',
    'noreject@example.com',
    'ada@reject.com',
    'reject',
  ])('approves %s', (email) => {
    expect(sandboxDecision(email)).toEqual({ status: 'active', reason: null });
  });

  it('approves a merchant without an email', () => {
    expect(sandboxDecision(null)).toEqual({ status: 'active', reason: null });
  });

  it('only ever decides on a status in_review may move to', () => {
    for (const email of ['reject@example.com', 'ada@example.com', null]) {
      expect(canTransition('in_review', sandboxDecision(email).status)).toBe(true);
    }
  });
});
