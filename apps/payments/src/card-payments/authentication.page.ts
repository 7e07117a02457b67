// The pages of 3-D Secure: the sandbox's own challenge page (approve / fail, server-rendered,
// no JavaScript, a CSRF token like every other form under /pay) and the words of a return.

import { escapeHtml } from '@paygrid/platform';
import { layout } from '../card-form/card-form.page';

export function renderSandboxChallenge(action: string, csrfToken: string, returnUrl: string): string {
  return layout(
    'Sandbox 3-D Secure challenge',
    `<h1>Confirm this payment</h1>
<p>This is the sandbox's stand-in for your bank's 3-D Secure check. In test mode no money moves either way.</p>
<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="csrf_token" value="${escapeHtml(csrfToken)}">
<input type="hidden" name="return_url" value="${escapeHtml(returnUrl)}">
<p><button type="submit" name="decision" value="approved" id="approve">Approve the payment</button></p>
<p><button type="submit" name="decision" value="failed" id="fail">Fail authentication</button></p>
</form>
<p class="muted">Test mode: card 4000 0027 6000 3184 always asks for this challenge.</p>`,
  );
}

export const AUTHENTICATION_WORDS = {
  forged: [
    'This link is not valid',
    'This payment confirmation link is not valid or has expired. You have not been charged by it; contact the seller if you are unsure whether you paid.',
  ],
  waiting: [
    'Payment not confirmed yet',
    'Your bank has not confirmed this payment yet, and nothing has been charged so far. If you left the authentication page, go back to the seller and pay again.',
  ],
  succeeded: ['Payment successful', 'Thank you; your payment was authenticated and received.'],
  notFound: ['Payment not found', 'Check the address you were given.'],
  challengeInvalid: [
    'This challenge is not valid',
    'This authentication page is not valid any more. Go back to the seller and pay again; you have not been charged.',
  ],
} as const satisfies Record<string, readonly [string, string]>;
