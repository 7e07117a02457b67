// Moves a test clock to a time farther than one advance may go (two intervals of its shortest
// subscription: issue 12 finding 2) as an integrator would: advance as far as the server says
// it may, then on, until the target. Answers the last advance's response.

import type { ApiResponse } from './platform';

type Api = (method: string, path: string, body?: unknown) => Promise<ApiResponse>;

const BOUND = /at most to (\S+?)\. Advance in several steps\./;

export async function advanceInSteps(api: Api, clock: string, to: string): Promise<ApiResponse> {
  for (let step = 0; step < 100; step++) {
    const answer = await api('POST', `/v1/test-clocks/${clock}/advance`, { frozen_time: to });
    const bound = answer.status === 400 ? BOUND.exec(String(answer.body?.error?.message)) : null;
    if (!bound) return answer;
    const partial = await api('POST', `/v1/test-clocks/${clock}/advance`, { frozen_time: bound[1] });
    if (partial.status !== 200) return partial;
  }
  throw new Error(`test clock ${clock} did not reach ${to} in 100 advances`);
}
