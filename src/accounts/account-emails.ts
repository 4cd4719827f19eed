import type { EmailService } from '../email/email.service.js';

/** What accounts need to email links: the queue, and the address the links open. */
export interface AccountMail {
  email: Pick<EmailService, 'queue' | 'enabled' | 'wake'>;
  publicBaseUrl: string;
}

/** An expiry as an email says it: "Fri, 04 Dec 2026 16:55:00 GMT". */
export const expiryWords = (stored: string): string => new Date(stored).toUTCString();

/** The invitation email: who invited them, to which workspace, and the one-time link. */
export function invitationEmail(invite: { inviter: string; workspace: string; link: string; expiresAt: string }) {
  return {
    subject: `You are invited to ${invite.workspace} on Parley`,
    text: [
      `${invite.inviter} invited you to join ${invite.workspace} on Parley.`,
      '',
      `Accept the invitation and choose your password: ${invite.link}`,
      '',
      `The link works once and expires ${invite.expiresAt}. If you did not expect it, ignore this email.`,
    ].join('\n'),
  };
}

/** The password reset email, with its one-time link. */
export function passwordResetEmail(reset: { link: string; expiresAt: string }) {
  return {
    subject: 'Reset your Parley password',
    text: [
      'Someone (hopefully you) asked to reset the password of this email’s Parley account.',
      '',
      `Choose a new password: ${reset.link}`,
      '',
      `The link works once and expires ${reset.expiresAt}. If you did not ask, ignore this email: your password stays as it is.`,
    ].join('\n'),
  };
}
