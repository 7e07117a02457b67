// Where mails go: SMTP through nodemailer when SMTP_URL is set; otherwise (the embedded
// default) each mail is written as an RFC 822 `.eml` file under the mail directory, built by
// nodemailer's stream transport, so it is byte for byte what SMTP would have carried.

import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTransport, type SendMailOptions, type Transporter } from 'nodemailer';
import type { Logger } from '@paygrid/platform';

export interface SendResult {
  /** The server's answer (`250 OK ...`) or the file written. */
  response: string;
}

export interface MailTransport {
  readonly kind: 'smtp' | 'file';
  send(message: SendMailOptions & { messageId: string }): Promise<SendResult>;
  close(): void;
}

/** An SMTP error code (`responseCode`) of 500-599: the server refuses for good. */
export function isPermanentSmtpError(error: unknown): boolean {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

export class SmtpTransport implements MailTransport {
  readonly kind = 'smtp';
  private readonly transporter: Transporter;

  constructor(url: string) {
    // Time-outs well inside the worker's lease, so a lease never runs out mid-send.
    this.transporter = createTransport({
      url,
      pool: true,
      maxConnections: 4,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
  }

  async send(message: SendMailOptions & { messageId: string }): Promise<SendResult> {
    const info = (await this.transporter.sendMail(message)) as { response?: string };
    return { response: info.response ?? 'accepted' };
  }

  close(): void {
    this.transporter.close();
  }
}

export class FileTransport implements MailTransport {
  readonly kind = 'file';
  private readonly builder: Transporter;

  constructor(
    private readonly dir: string,
    private readonly logger: Logger,
  ) {
    this.builder = createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  }

  async send(message: SendMailOptions & { messageId: string }): Promise<SendResult> {
    const info = (await this.builder.sendMail(message)) as { message: Buffer };
    await mkdir(this.dir, { recursive: true });
    const name = message.messageId.replace(/[<>]/g, '').replace(/[^A-Za-z0-9_.@-]/g, '_');
    const path = join(this.dir, `${name}.eml`);
    // Written then renamed: a reader never sees half a message.
    await writeFile(`${path}.tmp`, info.message);
    await rename(`${path}.tmp`, path);
    this.logger.info({ path, to: message.to, subject: message.subject }, 'mail written (no SMTP_URL)');
    return { response: `written to ${path}` };
  }

  close(): void {
    this.builder.close();
  }
}
