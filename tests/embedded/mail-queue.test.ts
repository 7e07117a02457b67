// The durable mail queue against a real SMTP server (smtp-server as a sink, mailparser to
// read what arrived): a mail queued in a business transaction is sent after commit with its
// recipients, subject, link and a PDF built at send time; a rolled-back transaction sends
// nothing; one send key is queued once; an SMTP server that fails and then recovers gets the
// mail exactly once (retries moved along with the injected clock). Without SMTP_URL the
// mail is written as an .eml file.

import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { startEmbedded, type Embedded } from '@paygrid/embedded';
import { createLogger, ManualClock } from '@paygrid/platform';
import { renderInvoicePdf } from '../../apps/invoicing/src/documents/pdf-rendering';
import { eventually } from '../support/platform';

interface Received {
  envelopeTo: string[];
  mail: ParsedMail;
}

let smtp: SMTPServer;
let port: number;
const received: Received[] = [];
/** How many of the next messages the sink refuses with a temporary 451. */
let refuseNext = 0;
let refused = 0;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith('nobody@')) {
        const error = new Error('no such mailbox') as Error & { responseCode: number };
        error.responseCode = 550;
        callback(error);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (refuseNext > 0) {
          refuseNext--;
          refused++;
          const error = new Error('try again later') as Error & { responseCode: number };
          error.responseCode = 451;
          callback(error);
          return;
        }
        simpleParser(Buffer.concat(chunks))
          .then((mail) => {
            received.push({ envelopeTo: session.envelope.rcptTo.map((r) => r.address), mail });
            callback();
          })
          .catch(callback);
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  port = (smtp.server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

describe('with SMTP_URL', () => {
  let embedded: Embedded;
  const clock = new ManualClock(new Date());

  beforeAll(async () => {
    embedded = await startEmbedded({
      dataDir: 'memory://',
      port: 0,
      demo: false,
      clock,
      env: { SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'Acme Billing <billing@acme.test>' },
      logger: createLogger('test', 'silent'),
    });
    embedded.services.invoicing.mail.registerAttachment('test_pdf', async (ref) => ({
      contentType: 'application/pdf',
      content: await renderInvoicePdf({
        number: ref,
        currency: 'EUR',
        issue_date: clock.now(),
        seller: { name: 'Acme' },
        customer: { name: 'Jenny Rosen' },
        lines: [
          { description: 'Widget', quantity: 2n, unit_amount: 1_250n, tax_rate_bps: 0n, amount: 2_500n },
        ],
        subtotal: 2_500n,
        discount_total: 0n,
        tax_total: 0n,
        total: 2_500n,
        amount_due: 2_500n,
      }),
    }));
  });
  afterAll(async () => {
    await embedded?.stop();
  });

  const db = () => embedded.services.invoicing.runtime.db;
  const mail = () => embedded.services.invoicing.mail;
  const queue = (sendKey: string, overrides: Record<string, unknown> = {}) =>
    db().transaction((tx) =>
      mail().enqueue(tx, {
        account: 'acct_mailtest0001',
        livemode: false,
        send_key: sendKey,
        to: ['jenny@example.test'],
        cc: ['accounts@example.test'],
        subject: `Invoice ${sendKey} from Acme`,
        text: `Pay online: http://localhost:3000/i/${sendKey}`,
        html: `<p><a href="http://localhost:3000/i/${sendKey}">Pay online</a></p>`,
        attachments: [{ kind: 'test_pdf', ref: sendKey, filename: `Invoice-${sendKey}.pdf` }],
        at: clock.now(),
        ...overrides,
      }),
    );
  const rowOf = async (id: string) =>
    (
      await db().query<{ status: string; attempts: number; sent_at: Date | null }>(
        'select status, attempts, sent_at from invoicing.mail_queue where id = $1',
        [id],
      )
    )[0];

  it('sends after commit: recipients, subject, link, PDF attachment and the row Message-ID', async () => {
    const queued = await queue('INV-0001');
    expect(queued.created).toBe(true);
    await mail().drain();
    const got = await eventually(async () =>
      received.find((r) => r.mail.subject === 'Invoice INV-0001 from Acme'),
    );
    expect(got.envelopeTo.sort()).toEqual(['accounts@example.test', 'jenny@example.test']);
    expect(got.mail.from?.text).toBe('"Acme Billing" <billing@acme.test>');
    expect(got.mail.messageId).toBe(queued.message_id);
    expect(got.mail.text).toContain('http://localhost:3000/i/INV-0001');
    expect(got.mail.html).toContain('href="http://localhost:3000/i/INV-0001"');
    expect(got.mail.attachments).toHaveLength(1);
    expect(got.mail.attachments[0].filename).toBe('Invoice-INV-0001.pdf');
    expect(got.mail.attachments[0].contentType).toBe('application/pdf');
    expect(got.mail.attachments[0].content.subarray(0, 5).toString()).toBe('%PDF-');
    const row = await eventually(async () => {
      const r = await rowOf(queued.id);
      return r.status === 'sent' ? r : undefined;
    });
    expect(row.attempts).toBe(1);
  });

  it('queues one send action once, and nothing when the business transaction rolls back', async () => {
    const first = await queue('INV-0002');
    const again = await queue('INV-0002', { subject: 'something else' });
    expect(again).toEqual({ ...first, created: false });
    await expect(
      db().transaction(async (tx) => {
        await mail().enqueue(tx, {
          account: 'acct_mailtest0001',
          livemode: false,
          send_key: 'INV-ROLLED-BACK',
          to: ['jenny@example.test'],
          subject: 'Invoice INV-ROLLED-BACK from Acme',
          text: 'never',
          at: clock.now(),
        });
        throw new Error('the business change failed');
      }),
    ).rejects.toThrow('the business change failed');
    await mail().drain();
    await eventually(async () => ((await rowOf(first.id)).status === 'sent' ? true : undefined));
    expect(received.filter((r) => r.mail.subject === 'Invoice INV-0002 from Acme')).toHaveLength(1);
    expect(received.filter((r) => r.mail.subject?.includes('ROLLED-BACK'))).toHaveLength(0);
    const rows = await db().query('select 1 from invoicing.mail_queue where send_key = $1', [
      'INV-ROLLED-BACK',
    ]);
    expect(rows).toHaveLength(0);
  });

  it('retries a failing SMTP server with backoff and delivers exactly once when it recovers', async () => {
    refuseNext = 2;
    refused = 0;
    const queued = await queue('INV-0003');
    await eventually(async () => ((await rowOf(queued.id)).attempts === 1 ? true : undefined));
    expect(refused).toBe(1);
    let row = await rowOf(queued.id);
    expect(row.status).toBe('pending');
    // Not due again before its backoff (30 s +- 10 %).
    clock.advance(20_000);
    await mail().drain();
    expect((await rowOf(queued.id)).attempts).toBe(1);
    clock.advance(15_000);
    await mail().drain();
    await eventually(async () => ((await rowOf(queued.id)).attempts === 2 ? true : undefined));
    expect(refused).toBe(2);
    clock.advance(70_000);
    await mail().drain();
    row = await eventually(async () => {
      const r = await rowOf(queued.id);
      return r.status === 'sent' ? r : undefined;
    });
    expect(row.attempts).toBe(3);
    // Much later, nothing more is sent for this send action.
    clock.advance(24 * 3_600_000);
    await mail().drain();
    await new Promise((r) => setTimeout(r, 300));
    expect(received.filter((r) => r.mail.subject === 'Invoice INV-0003 from Acme')).toHaveLength(1);
    const [{ last_error }] = await db().query<{ last_error: string | null }>(
      'select last_error from invoicing.mail_queue where id = $1',
      [queued.id],
    );
    expect(last_error).toBeNull();
  });

  it('gives up at once on a permanent refusal (5xx) and records why', async () => {
    const queued = await queue('INV-0004', { to: ['nobody@example.test'], cc: [] });
    const row = await eventually(async () => {
      const [r] = await db().query<{ status: string; attempts: number; last_error: string }>(
        'select status, attempts, last_error from invoicing.mail_queue where id = $1',
        [queued.id],
      );
      return r.status === 'failed' ? r : undefined;
    });
    expect(row.attempts).toBe(1);
    expect(row.last_error).toContain('no such mailbox');
  });

  it('retries an attachment nobody can build yet (an older instance may lack the builder)', async () => {
    const queued = await queue('INV-0005', {
      attachments: [{ kind: 'unknown_kind', ref: 'x', filename: 'x.pdf' }],
    });
    await eventually(async () => ((await rowOf(queued.id)).attempts === 1 ? true : undefined));
    const [row] = await db().query<{ status: string; last_error: string }>(
      'select status, last_error from invoicing.mail_queue where id = $1',
      [queued.id],
    );
    expect(row.status).toBe('pending');
    expect(row.last_error).toContain('no attachment builder for kind unknown_kind');
    expect(received.filter((r) => r.mail.subject === 'Invoice INV-0005 from Acme')).toHaveLength(0);
  });

  it('deletes sent and failed mails only after 90 days', async () => {
    const [{ before }] = await db().query<{ before: string }>(
      `select count(*) as before from invoicing.mail_queue where status in ('sent', 'failed')`,
    );
    expect(Number(before)).toBeGreaterThan(0);
    expect(await mail().prune()).toBe(0);
    clock.advance(91 * 24 * 3_600_000);
    expect(await mail().prune()).toBe(Number(before));
    const pending = await db().query(`select 1 from invoicing.mail_queue where status = 'pending'`);
    expect(pending.length).toBeGreaterThan(0);
  });
});

describe('without SMTP_URL', () => {
  let embedded: Embedded;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'paygrid-mail-'));
    embedded = await startEmbedded({
      dataDir: 'memory://',
      port: 0,
      demo: false,
      env: { MAIL_DIR: dir },
      logger: createLogger('test', 'silent'),
    });
  });
  afterAll(async () => {
    await embedded?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('writes each mail as an RFC 822 .eml file under the mail directory', async () => {
    const { runtime, mail } = embedded.services.invoicing;
    const queued = await runtime.db.transaction((tx) =>
      mail.enqueue(tx, {
        account: 'acct_mailtest0002',
        livemode: false,
        send_key: 'quote-1',
        to: ['jenny@example.test'],
        subject: 'Quote Q-0001 from Acme',
        text: 'Review and accept: http://localhost:3000/q/est_123',
        at: new Date(),
      }),
    );
    await mail.drain();
    const files = await eventually(async () => {
      const names = (await readdir(dir)).filter((n) => n.endsWith('.eml'));
      return names.length ? names : undefined;
    });
    expect(files).toHaveLength(1);
    const parsed = await simpleParser(await readFile(join(dir, files[0])));
    expect(parsed.messageId).toBe(queued.message_id);
    expect(parsed.subject).toBe('Quote Q-0001 from Acme');
    expect(parsed.to && 'text' in parsed.to ? parsed.to.text : '').toBe('jenny@example.test');
    expect(parsed.text).toContain('http://localhost:3000/q/est_123');
  });
});
