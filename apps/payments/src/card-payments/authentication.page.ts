// The pages of 3-D Secure: the sandbox's own challenge page (approve / fail, server-rendered,
// no JavaScript, a CSRF token like every other form under /pay; a developer's page, in
// English). The words of a return are the catalogue's pay.auth_* messages.

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
