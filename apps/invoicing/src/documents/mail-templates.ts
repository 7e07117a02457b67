// The HTML shell of the mails (a plain-text part always goes with it). Every interpolated
// value is escaped by the caller with escapeHtml.

import { escapeHtml } from '@paygrid/platform';

/** The escaping of the public pages (libs/platform), re-exported for the mails' callers. */
export { escapeHtml };

/** `lang`: the mail's language (a `messagesFor(...).locale`, libs/platform i18n). */
export function mailHtml(title: string, blocks: string[], lang = 'en'): string {
  return `<!DOCTYPE html>
<html lang="${escapeHtml(lang)}"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;padding:24px;background:#f4f5f7;font:15px/1.5 Arial,Helvetica,sans-serif;color:#1a1a1a">
<div style="max-width:560px;margin:0 auto;padding:24px;background:#ffffff;border-radius:8px">
${blocks.join('\n')}
</div>
</body></html>
`;
}
