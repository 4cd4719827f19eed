import nodemailer from 'nodemailer';
import type { SmtpConfig } from '../config.js';

/** One email as Parley writes it: plain text only (links stay visible and nothing is hidden in HTML). */
export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
  /** The Message-ID, the same on every try: a client seeing one twice shows it once. */
  messageId: string;
}

/** Sends an email through the SMTP server; throws what the server or the network refused. */
export type Mailer = (email: OutgoingEmail) => Promise<void>;

/** How long one SMTP conversation may take before it counts as failed (and is retried later). */
const SMTP_TIMEOUT_MS = 30_000;

/** A mailer over the configured SMTP server (nodemailer keeps no pool: a send is one connection). */
export function createSmtpMailer(smtp: SmtpConfig): Mailer {
  const transport = nodemailer.createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    ...(smtp.auth && { auth: smtp.auth }),
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
    // nodemailer's own logger stays off: it would print the AUTH exchange.
    logger: false,
  });
  return async (email) => {
    await transport.sendMail({ from: smtp.from, ...email });
  };
}
