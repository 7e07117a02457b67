// The mail worker: sends queued mails AFTER the transactions that queued them committed.
// Like the webhook delivery worker, it claims due rows with FOR UPDATE SKIP LOCKED in a short
// transaction that takes a lease, talks to SMTP outside any transaction, then records the
// outcome in a transaction of its own. Several instances share the queue.
//
// Never twice for one send action: the queue has one row per send key, a row is claimed by
// one worker at a time (the lease outlives every SMTP time-out), and it is marked `sent` right
// after the server accepted it. The residual window: a process that dies AFTER the SMTP
// server accepted the message and BEFORE the `sent` mark commits leaves the row leased; when
// the lease runs out the mail is sent again, with the SAME Message-ID (fixed per row), and
// the worker logs that the earlier attempt may have been delivered. Receivers and many
// mail stores collapse duplicates by Message-ID; that window (a few milliseconds per mail)
// is the at-least-once remainder that no SMTP client can close, since SMTP has no
// idempotency key.

import { Periodic, type Clock, type Database, type Logger } from '@paygrid/platform';
import { MailAttachments, PermanentMailError } from './mail.attachments';
import type { MailAttachmentRef } from './mail.queue';
import { isPermanentSmtpError, type MailTransport } from './mail.transport';

const BATCH = 10;
/** Sent and failed rows are kept this long (audit, send-key dedupe), then deleted hourly. */
export const MAIL_RETENTION_MS = 90 * 24 * 3_600_000;
const PRUNE_EVERY_MS = 3_600_000;
const POLL_MS = 500;
/** Longer than the worst case of one send (build + 10 s connect + 10 s greeting + 30 s socket). */
const LEASE_MS = 2 * 60_000;
/** Waits after the 1st, 2nd, ... failed attempt; after the last one the mail is `failed`. */
export const MAIL_RETRY_DELAYS_MS = [
  30_000,
  60_000,
  5 * 60_000,
  15 * 60_000,
  30 * 60_000,
  60 * 60_000,
  2 * 3_600_000,
  4 * 3_600_000,
  8 * 3_600_000,
  12 * 3_600_000,
];

interface ClaimedMail {
  id: string;
  account_id: string;
  livemode: boolean;
  message_id: string;
  to_addresses: string[];
  cc_addresses: string[];
  reply_to: string | null;
  /** The seller's name, fixed when the mail was queued (the business profile). */
  from_name: string | null;
  subject: string;
  text_body: string;
  html_body: string | null;
  attachments: MailAttachmentRef[];
  attempts: number;
  /** The lease of an earlier claim that never completed (a crash mid-send), if any. */
  previous_lease: Date | null;
}

/**
 * The From of a mail: the operator's address (MAIL_FROM, which the SMTP server is allowed to
 * send from) under the seller's name, so the customer sees who wrote to them; the seller's
 * own address goes in Reply-To (docs/adr/0011). Without a name, MAIL_FROM as configured.
 */
export function sender(mailFrom: string, name: string | null): string | { name: string; address: string } {
  if (!name) return mailFrom;
  const address = /<([^<>]+)>\s*$/.exec(mailFrom)?.[1] ?? mailFrom.trim();
  return { name, address };
}

/** When to try again after `attempts` failed attempts; undefined: give up. */
export function nextMailAttemptAt(attempts: number, now: Date, random = Math.random): Date | undefined {
  const delay = MAIL_RETRY_DELAYS_MS[attempts - 1];
  if (delay === undefined) return undefined;
  // +-10 % jitter, so mails that failed together (an SMTP outage) do not retry in lockstep.
  return new Date(now.getTime() + Math.round(delay * (0.9 + 0.2 * random())));
}

export class MailWorker {
  private timer?: NodeJS.Timeout;
  private readonly pruner: Periodic;
  private running?: Promise<void>;
  private again = false;
  private stopped = false;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly transport: MailTransport,
    private readonly attachments: MailAttachments,
    private readonly from: string,
  ) {
    this.pruner = new Periodic('mail queue cleanup', PRUNE_EVERY_MS, () => this.prune(), logger);
  }

  start(): void {
    this.timer = setInterval(() => this.wake(), POLL_MS);
    this.timer.unref();
    this.pruner.start();
    this.wake();
  }

  /**
   * Deletes sent and failed mails older than the retention. Send keys carry a per-object
   * counter (`<invoice>:send:<n>`), so a key is never reused after its row is gone.
   */
  async prune(): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - MAIL_RETENTION_MS);
    const rows = await this.db.query<{ id: string }>(
      `delete from invoicing.mail_queue where status in ('sent', 'failed') and updated_at < $1 returning id`,
      [cutoff],
    );
    return rows.length;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.pruner.stop();
    await this.running;
    this.transport.close();
  }

  /** Runs a round now (or right after the current one). Called after every outbox commit. */
  wake = (): void => {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.round()
      .then(() => undefined)
      .catch((err: unknown) => this.logger.error({ err }, 'mail round failed'))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  };

  /** Sends everything due now, round after round, and resolves when nothing is left (tests). */
  async drain(): Promise<void> {
    await this.running;
    while ((await this.round()) > 0) {
      // keep going until a round claims nothing
    }
  }

  private async round(): Promise<number> {
    const claimed = await this.claim();
    await Promise.all(claimed.map((mail) => this.send(mail)));
    if (claimed.length === BATCH) this.again = true;
    return claimed.length;
  }

  private claim(): Promise<ClaimedMail[]> {
    const now = this.clock.now();
    return this.db.ownTransaction((tx) =>
      tx.query<ClaimedMail>(
        `with due as (
           select id, lease_until as previous_lease from invoicing.mail_queue
            where status = 'pending' and next_attempt_at <= $1
              and (lease_until is null or lease_until <= $1)
            order by next_attempt_at, created_at
            limit $3
            for update skip locked)
         update invoicing.mail_queue m set lease_until = $2, last_attempt_at = $1, updated_at = $1
           from due where m.id = due.id
         returning m.id, m.account_id, m.livemode, m.message_id, m.to_addresses, m.cc_addresses,
           m.reply_to, m.from_name, m.subject, m.text_body, m.html_body, m.attachments, m.attempts, due.previous_lease`,
        [now, new Date(now.getTime() + LEASE_MS), BATCH],
      ),
    );
  }

  private async send(mail: ClaimedMail): Promise<void> {
    if (mail.previous_lease) {
      this.logger.warn(
        { mail: mail.id, message_id: mail.message_id },
        'mail claimed again after an interrupted attempt; it may have been delivered already (same Message-ID)',
      );
    }
    let response: string;
    try {
      const attachments = await this.attachments.build(mail.attachments, {
        account: mail.account_id,
        livemode: mail.livemode,
      });
      ({ response } = await this.transport.send({
        from: sender(this.from, mail.from_name),
        to: mail.to_addresses,
        ...(mail.cc_addresses.length ? { cc: mail.cc_addresses } : {}),
        ...(mail.reply_to ? { replyTo: mail.reply_to } : {}),
        subject: mail.subject,
        text: mail.text_body,
        ...(mail.html_body ? { html: mail.html_body } : {}),
        messageId: mail.message_id,
        attachments,
      }));
    } catch (error) {
      await this.failed(mail, error);
      return;
    }
    // Its own transaction, right after the accept: the shortest possible at-least-once window.
    await this.db.ownTransaction((tx) =>
      tx.query(
        `update invoicing.mail_queue set status = 'sent', attempts = attempts + 1, sent_at = $2,
           lease_until = null, last_error = null, transport_response = $3, updated_at = $2
         where id = $1`,
        [mail.id, this.clock.now(), response.slice(0, 500)],
      ),
    );
  }

  private async failed(mail: ClaimedMail, error: unknown): Promise<void> {
    const attempts = mail.attempts + 1;
    const now = this.clock.now();
    const permanent = error instanceof PermanentMailError || isPermanentSmtpError(error);
    const next = permanent ? undefined : nextMailAttemptAt(attempts, now);
    const message = error instanceof Error ? error.message : String(error);
    await this.db.ownTransaction((tx) =>
      tx.query(
        `update invoicing.mail_queue set status = $2, attempts = $3, next_attempt_at = coalesce($4, next_attempt_at),
           lease_until = null, last_error = $5, updated_at = $6
         where id = $1`,
        [mail.id, next ? 'pending' : 'failed', attempts, next ?? null, message.slice(0, 1000), now],
      ),
    );
    const log = { mail: mail.id, attempts, next_attempt_at: next, err: message };
    if (next) this.logger.warn(log, 'mail not sent; will retry');
    else this.logger.error(log, 'mail failed for good');
  }
}
