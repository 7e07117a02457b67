// The durable mail queue: what a send action writes, in ITS OWN business transaction, so a
// mail exists if and only if the change that decided to send it committed (no dual write).
// Delivery happens after commit, in MailWorker. The row stays small: attachments are named
// (`{ kind: 'invoice_pdf', ref: 'inv_...' }`) and built when the mail is sent.

import { randomBase62, type Tx } from '@paygrid/platform';
import { profileOf, sellerDisplayName } from '../account/account-profile';
import { profileInTx } from '../account/account.service';

/** An attachment built at send time by the builder registered for `kind` (MailAttachments). */
export interface MailAttachmentRef {
  kind: string;
  /** What the builder renders, e.g. the invoice id. */
  ref: string;
  filename: string;
}

export interface MailMessage {
  account: string;
  livemode: boolean;
  /**
   * Names the send action, unique per account and mode, e.g. `invoice.send:inv_...:2`. A
   * second enqueue with the same key (a retried request, a job run twice) queues nothing.
   */
  send_key: string;
  to: string[];
  cc?: string[];
  /** Default: the account's support e-mail (its business profile). */
  reply_to?: string;
  subject: string;
  /** The plain-text body (always sent; the HTML part is optional). */
  text: string;
  html?: string;
  attachments?: MailAttachmentRef[];
  /** When the send action happened (the caller's clock). */
  at: Date;
}

export interface QueuedMail {
  id: string;
  /** The RFC 5322 Message-ID the mail will carry on every attempt. */
  message_id: string;
  /** false when the send key was already queued (nothing was added). */
  created: boolean;
}

export const MESSAGE_ID_DOMAIN = 'mail.paygrid';

/**
 * Queues `message` in the caller's transaction. The mail is sent after that transaction
 * commits; if it rolls back, nothing is sent. Idempotent on `send_key`.
 */
export async function enqueueMail(tx: Tx, message: MailMessage): Promise<QueuedMail> {
  if (!message.to.length) throw new RangeError('a mail needs at least one recipient');
  // Every mail goes out under the seller's name with its support address as Reply-To, as the
  // profile reads when the mail is queued (a retry later sends the same mail).
  const profileRow = await profileInTx(tx, message.account);
  const profile = profileOf(profileRow);
  const fromName = sellerDisplayName(profile, profileRow?.account_name);
  const replyTo = message.reply_to ?? profile.support_email;
  const id = `mail_${randomBase62(24)}`;
  const messageId = `<${id}@${MESSAGE_ID_DOMAIN}>`;
  // next_attempt_at '-infinity': due at once whatever the worker's clock says (a test clock's
  // frozen time must not hold a mail back).
  const [row] = await tx.query<{ id: string; message_id: string }>(
    `insert into invoicing.mail_queue (id, account_id, livemode, send_key, message_id, to_addresses,
       cc_addresses, reply_to, subject, text_body, html_body, attachments, next_attempt_at, created_at, updated_at, from_name)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb, '-infinity', $13, $13, $14)
     on conflict (account_id, livemode, send_key) do nothing
     returning id, message_id`,
    [
      id,
      message.account,
      message.livemode,
      message.send_key,
      messageId,
      message.to,
      message.cc ?? [],
      replyTo ?? null,
      message.subject,
      message.text,
      message.html ?? null,
      JSON.stringify(message.attachments ?? []),
      message.at,
      fromName,
    ],
  );
  if (row) return { id: row.id, message_id: row.message_id, created: true };
  const [existing] = await tx.query<{ id: string; message_id: string }>(
    `select id, message_id from invoicing.mail_queue where account_id = $1 and livemode = $2 and send_key = $3`,
    [message.account, message.livemode, message.send_key],
  );
  return { id: existing.id, message_id: existing.message_id, created: false };
}
