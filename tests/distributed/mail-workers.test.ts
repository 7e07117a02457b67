// Several mail workers on one real PostgreSQL queue (as several invoicing instances would
// be): every queued mail reaches the SMTP server exactly once, whoever claims it
// (FOR UPDATE SKIP LOCKED with a lease), and a lease left behind by a worker that died
// mid-send is taken over after it runs out, with the same Message-ID.

import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { INVOICING_MIGRATIONS } from '@paygrid/invoicing';
import { createLogger, Database, ManualClock } from '@paygrid/platform';
import { MailAttachments } from '../../apps/invoicing/src/mail/mail.attachments';
import { enqueueMail } from '../../apps/invoicing/src/mail/mail.queue';
import { SmtpTransport } from '../../apps/invoicing/src/mail/mail.transport';
import { MailWorker } from '../../apps/invoicing/src/mail/mail.worker';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';

const baseUrl = process.env.DATABASE_URL as string;
const database = `paygrid_mail_${randomBytes(5).toString('hex')}`;
let db: Database;
let smtp: SmtpSink;
const logger = createLogger('test', 'silent');
const clock = new ManualClock(new Date());

beforeAll(async () => {
  const admin = new Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${database}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${database}`;
  db = await Database.connect(
    { url: url.toString(), schema: 'invoicing', migrations: INVOICING_MIGRATIONS, poolSize: 10 },
    logger,
  );
  await db.migrate();
  smtp = await startSmtpSink();
});

afterAll(async () => {
  await db?.close();
  await smtp?.close();
  const admin = new Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${database} with (force)`);
  await admin.end();
});

const worker = () =>
  new MailWorker(
    db,
    clock,
    logger,
    new SmtpTransport(smtp.url),
    new MailAttachments(),
    'Acme <billing@acme.test>',
  );

it('four workers draining one queue send each of 60 mails exactly once', async () => {
  const queued = await db.transaction(async (tx) => {
    const ids: string[] = [];
    for (let i = 0; i < 60; i++) {
      const mail = await enqueueMail(tx, {
        account: 'acct_mailworkers01',
        livemode: false,
        send_key: `bulk:${i}`,
        to: [`customer${i}@example.test`],
        subject: `Invoice ${i}`,
        text: `Pay invoice ${i}`,
        at: clock.now(),
      });
      ids.push(mail.message_id);
    }
    return ids;
  });
  const workers = [worker(), worker(), worker(), worker()];
  await Promise.all(workers.map((w) => w.drain()));
  await Promise.all(workers.map((w) => w.stop()));
  const received = smtp.received.filter((m) => m.mail.subject?.startsWith('Invoice '));
  expect(received).toHaveLength(60);
  expect(new Set(received.map((m) => m.mail.messageId)).size).toBe(60);
  expect(received.map((m) => m.mail.messageId).sort()).toEqual([...queued].sort());
  const [{ sent }] = await db.query<{ sent: string }>(
    `select count(*) as sent from invoicing.mail_queue where send_key like 'bulk:%' and status = 'sent' and attempts = 1`,
  );
  expect(Number(sent)).toBe(60);
});

it('takes over a mail whose worker died mid-send once the lease runs out, with the same Message-ID', async () => {
  const mail = await db.transaction((tx) =>
    enqueueMail(tx, {
      account: 'acct_mailworkers01',
      livemode: false,
      send_key: 'crashed:1',
      to: ['ada@example.test'],
      subject: 'Crash test',
      text: 'hello',
      at: clock.now(),
    }),
  );
  // A worker claimed it and died before recording anything: the row keeps its lease.
  await db.query(`update invoicing.mail_queue set lease_until = $2 where id = $1`, [
    mail.id,
    new Date(clock.now().getTime() + 120_000),
  ]);
  const survivor = worker();
  await survivor.drain();
  expect(smtp.received.filter((m) => m.mail.subject === 'Crash test')).toHaveLength(0);
  clock.advance(121_000);
  await survivor.drain();
  await survivor.stop();
  const delivered = smtp.received.filter((m) => m.mail.subject === 'Crash test');
  expect(delivered).toHaveLength(1);
  expect(delivered[0].mail.messageId).toBe(mail.message_id);
});
