// The sandbox's 3-D Secure challenges (sandbox.connector.ts): the payer's decision on the
// challenge page the platform serves for the test card 4000 0027 6000 3184, the one piece of
// state the sandbox processor keeps. The first decision stands (a second post changes nothing),
// as a real issuer's challenge answers once.

import type { Clock, Database } from '@paygrid/platform';

export type ChallengeDecision = 'approved' | 'failed';

/**
 * What the sandbox connector reads: the decision that stands for a challenge, if any; and
 * `decide`, with which it cancels an abandoned challenge (a `failed` decision, unless the
 * payer's own came first).
 */
export interface ChallengeDecisions {
  decision(reference: string): Promise<ChallengeDecision | undefined>;
  decide(reference: string, decision: ChallengeDecision): Promise<ChallengeDecision>;
}

export class SandboxChallenges implements ChallengeDecisions {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /**
   * The test-mode transaction waiting on this challenge, if any: a challenge page exists only
   * for a sandbox charge that answered requires_action.
   */
  async waiting(reference: string): Promise<{ id: string } | undefined> {
    const [row] = await this.db.query<{ id: string }>(
      `select id from payments.transactions
        where processor_reference = $1 and livemode = false and status = 'requires_action'`,
      [reference],
    );
    return row;
  }

  /** Records the payer's decision; answers the one that stands (the first). */
  async decide(reference: string, decision: ChallengeDecision): Promise<ChallengeDecision> {
    await this.db.query(
      `insert into payments.sandbox_challenges (reference, decision, decided_at) values ($1, $2, $3)
       on conflict (reference) do nothing`,
      [reference, decision, this.clock.now()],
    );
    return (await this.decision(reference)) ?? decision;
  }

  async decision(reference: string): Promise<ChallengeDecision | undefined> {
    const [row] = await this.db.query<{ decision: ChallengeDecision }>(
      'select decision from payments.sandbox_challenges where reference = $1',
      [reference],
    );
    return row?.decision;
  }
}
