import { resolve } from 'node:path';
import { readServiceConfig, type ServiceConfig } from '@paygrid/platform';

export interface InvoicingConfig extends ServiceConfig {
  /**
   * Where customers reach the gateway: hosted invoice pages are `${publicBaseUrl}/i/<id>`,
   * quote pages `${publicBaseUrl}/q/<id>`. Default: the gateway on this host (embedded: this
   * process's port; distributed: 3000).
   */
  publicBaseUrl: string;
  /**
   * `smtp://user:pass@host:port` or `smtps://...` (nodemailer's URL form). Unset: mails are
   * written as RFC 822 `.eml` files under `mailDir` instead (the embedded default).
   */
  smtpUrl?: string;
  /** The From header of every mail, e.g. `Paygrid <billing@example.com>`. */
  mailFrom: string;
  /** Where `.eml` files go when there is no SMTP_URL: `MAIL_DIR`, else `DATA_DIR/mail`. */
  mailDir: string;
  /** Invoice numbers are `<prefix>-0001`, `-0002`, ... per account and mode (`INVOICE_NUMBER_PREFIX`, default `INV`). */
  invoiceNumberPrefix: string;
  /**
   * Worker threads that draw PDFs (`PDF_THREADS`, 0-16, default 1): off the event loop that
   * answers the API and sends the mail (documents/pdf-rendering.ts). 0 draws them on it.
   */
  pdfThreads: number;
}

export function readInvoicingConfig(
  env: Record<string, string | undefined>,
  overrides: Partial<InvoicingConfig> = {},
): InvoicingConfig {
  const { reader, config } = readServiceConfig(env, 'invoicing', 3002);
  const gatewayPort = config.mode === 'embedded' ? config.port : 3000;
  const publicBaseUrl = reader
    .url('PUBLIC_BASE_URL', ['http', 'https'], `http://localhost:${gatewayPort}`)
    .replace(/\/+$/, '');
  const smtpUrl = reader.optional('SMTP_URL');
  if (smtpUrl) {
    try {
      const parsed = new URL(smtpUrl);
      if (!['smtp:', 'smtps:'].includes(parsed.protocol)) {
        reader.problem(`SMTP_URL must use smtp or smtps (got ${parsed.protocol})`);
      }
    } catch {
      reader.problem('SMTP_URL is not a valid URL');
    }
  }
  const mailFrom = reader.string('MAIL_FROM', 'Paygrid <no-reply@paygrid.invalid>');
  // The embedded runner keeps its data under DATA_DIR (default ./.data); mails go next to it.
  const mailDir = resolve(reader.optional('MAIL_DIR') ?? `${reader.optional('DATA_DIR') ?? '.data'}/mail`);
  const invoiceNumberPrefix = reader.string('INVOICE_NUMBER_PREFIX', 'INV');
  if (!/^[A-Za-z0-9][A-Za-z0-9-]{0,11}$/.test(invoiceNumberPrefix)) {
    reader.problem('INVOICE_NUMBER_PREFIX must be 1-12 letters, digits or dashes');
  }
  const pdfThreads = reader.int('PDF_THREADS', 1, 0, 16);
  reader.done();
  return {
    ...config,
    publicBaseUrl,
    invoiceNumberPrefix,
    pdfThreads,
    ...(smtpUrl ? { smtpUrl } : {}),
    mailFrom,
    mailDir,
    ...overrides,
  };
}
