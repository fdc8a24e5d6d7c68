// Outgoing mail. SMTP when SMTP_URL is set; otherwise each message is written as an .eml file under
// DATA_DIR/mail and its link logged, so a fresh install can sign up without any mail server.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import type StreamTransport from 'nodemailer/lib/stream-transport';
import type { Config } from '../config';
import type { AppDeps } from '../deps';
import type { QueueSpec } from '../jobs/boss';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  replyTo?: string | undefined;
  /** The one link the mail is about; logged when mails go to files so an operator can follow it. */
  link?: string | undefined;
}

export const MAIL_QUEUE: QueueSpec = {
  name: 'mail',
  // An SMTP conversation that has not finished in a minute is dead; retry it.
  expireInSeconds: 60,
  retryLimit: 5,
  concurrency: 1,
};

export type Deliver = (message: MailMessage) => Promise<void>;

/** nodemailer, loaded at the first mail: it is not needed for a node to answer its first request. */
let mailer: Promise<typeof nodemailer> | undefined;
const loadMailer = () => {
  // A CommonJS module: its exports are the import's default.
  mailer ??= import('nodemailer').then((m) => (m as unknown as { default: typeof nodemailer }).default);
  return mailer;
};

export function createDeliver(
  config: Pick<Config, 'smtpUrl' | 'dataDir' | 'mailFrom'>,
  log: (line: string) => void = (line) => console.info(line),
): Deliver {
  if (config.smtpUrl) {
    const smtpUrl = config.smtpUrl;
    const transport = loadMailer().then((m) => m.createTransport(smtpUrl));
    return async (msg) => {
      await (await transport).sendMail({
        from: config.mailFrom,
        to: msg.to,
        subject: msg.subject,
        text: msg.text,
        replyTo: msg.replyTo,
      });
    };
  }
  let transport: Promise<Transporter<StreamTransport.SentMessageInfo>> | undefined;
  const outbox = path.join(config.dataDir, 'mail');
  return async (msg) => {
    transport ??= loadMailer().then((m) =>
      m.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }),
    );
    const info = await (await transport).sendMail({
      from: config.mailFrom,
      to: msg.to,
      subject: msg.subject,
      text: msg.text,
      replyTo: msg.replyTo,
    });
    // The mails carry sign-in and password-reset links: readable by this user only (also an outbox an
    // older version left open), whatever the umask; DATA_DIR itself keeps its mode.
    await fs.mkdir(config.dataDir, { recursive: true });
    await fs.mkdir(outbox, { recursive: true, mode: 0o700 });
    await fs.chmod(outbox, 0o700);
    const file = path.join(outbox, `${Date.now()}-${randomBytes(4).toString('hex')}.eml`);
    await fs.writeFile(file, info.message as Buffer, { mode: 0o600 });
    log(`[mail] to ${msg.to}: ${msg.subject}${msg.link ? ` ${msg.link}` : ''} (${file})`);
  };
}

const direct = new WeakMap<object, Deliver>();

/**
 * Queues the mail on pg-boss so that a slow or failing SMTP server never holds up a request (and is
 * retried); processes without a job queue (some tests) deliver at once.
 */
export async function sendMail(deps: AppDeps, message: MailMessage): Promise<void> {
  if (deps.jobs) {
    await deps.jobs.send(MAIL_QUEUE.name, message, { retryLimit: MAIL_QUEUE.retryLimit });
    return;
  }
  let deliver = direct.get(deps.config);
  if (!deliver) {
    deliver = createDeliver(deps.config);
    direct.set(deps.config, deliver);
  }
  await deliver(message);
}
