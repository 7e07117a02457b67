// The mail facade the rest of the invoicing service uses: queue a mail in a business
// transaction (`enqueue`, same as enqueueMail), register attachment builders, and (tests)
// drain the queue. Built once per service from the configuration.

import type { Clock, Database, Logger, Tx } from '@paygrid/platform';
import type { InvoicingConfig } from '../config';
import { MailAttachments, type AttachmentBuilder } from './mail.attachments';
import { enqueueMail, type MailMessage, type QueuedMail } from './mail.queue';
import { FileTransport, SmtpTransport, type MailTransport } from './mail.transport';
import { MailWorker } from './mail.worker';

export class MailService {
  readonly attachments = new MailAttachments();
  readonly transport: MailTransport;
  private readonly worker: MailWorker;
  private stopListening?: () => void;

  constructor(
    private readonly db: Database,
    clock: Clock,
    logger: Logger,
    config: Pick<InvoicingConfig, 'smtpUrl' | 'mailFrom' | 'mailDir'>,
  ) {
    this.transport = config.smtpUrl
      ? new SmtpTransport(config.smtpUrl)
      : new FileTransport(config.mailDir, logger);
    this.worker = new MailWorker(db, clock, logger, this.transport, this.attachments, config.mailFrom);
  }

  /** Queues a mail in the caller's transaction (see enqueueMail). */
  enqueue(tx: Tx, message: MailMessage): Promise<QueuedMail> {
    return enqueueMail(tx, message);
  }

  registerAttachment(kind: string, builder: AttachmentBuilder): void {
    this.attachments.register(kind, builder);
  }

  start(): void {
    // Every send action emits its event in the same transaction as its mail, so the outbox's
    // after-commit signal is the mail queue's too; the poll is the fallback.
    this.stopListening = this.db.onOutboxCommit(this.worker.wake);
    this.worker.start();
  }

  /** Runs the worker until nothing is due (tests; the timer does this in production). */
  drain(): Promise<void> {
    return this.worker.drain();
  }

  /** Deletes sent and failed mails past the retention (hourly on its own; tests call it). */
  prune(): Promise<number> {
    return this.worker.prune();
  }

  wake(): void {
    this.worker.wake();
  }

  async stop(): Promise<void> {
    this.stopListening?.();
    await this.worker.stop();
  }
}
