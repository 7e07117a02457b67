// Merchant onboarding rules, in one place: which details are required, and which status
// changes are allowed (docs/api.md §5).
//   pending -> in_review (all requirements submitted) -> active | rejected
//   active <-> restricted (operator)

export type OnboardingStatus = 'pending' | 'in_review' | 'active' | 'rejected' | 'restricted';

export const REQUIRED_DETAILS = [
  'business_name',
  'email',
  'country',
  'default_currency',
  'business_type',
] as const;

export const TRANSITIONS: Record<OnboardingStatus, readonly OnboardingStatus[]> = {
  pending: ['in_review'],
  in_review: ['active', 'rejected'],
  active: ['restricted'],
  restricted: ['active'],
  rejected: [],
};

export function canTransition(from: OnboardingStatus, to: OnboardingStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

export function requirementsDue(
  details: Partial<Record<(typeof REQUIRED_DETAILS)[number], string | null>>,
): string[] {
  return REQUIRED_DETAILS.filter((field) => !details[field]);
}

/**
 * The sandbox decides at once. Documented magic value: an `email` whose local part is
 * `reject` (e.g. reject@example.com) is rejected; everything else is approved.
 */
export function sandboxDecision(email: string | null): {
  status: 'active' | 'rejected';
  reason: string | null;
} {
  return email?.toLowerCase().startsWith('reject@')
    ? { status: 'rejected', reason: 'Rejected by the sandbox (email reject@...).' }
    : { status: 'active', reason: null };
}
