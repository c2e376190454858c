import { layout } from '../emails.ts';

export interface AuthMail {
  subject: string;
  text: string;
  html: string;
}

const NOT_YOU = 'If you did not ask for this, ignore this email: nothing changes.';

export function signInLinkEmail(opts: { url: string; minutes: number }): AuthMail {
  return {
    subject: 'Your sign-in link',
    ...layout(
      [
        'Use the button below to sign in to the e-signature dashboard.',
        `The link works once, for ${opts.minutes} minutes.`,
      ],
      { url: opts.url, label: 'Sign in' },
      `${NOT_YOU} Anyone holding this link can sign in as you; do not forward it.`,
    ),
  };
}

export function passwordResetEmail(opts: { url: string; minutes: number }): AuthMail {
  return {
    subject: 'Reset your password',
    ...layout(
      [
        'Someone (hopefully you) asked to reset the password of your e-signature dashboard account.',
        `The link works once, for ${opts.minutes} minutes. Choosing a new password signs out your other sessions.`,
      ],
      { url: opts.url, label: 'Choose a new password' },
      NOT_YOU,
    ),
  };
}

export function memberInvitationEmail(opts: {
  url: string;
  accountName: string;
  inviterName: string;
  role: string;
  days: number;
}): AuthMail {
  return {
    subject: `${opts.inviterName} invited you to ${opts.accountName}`,
    ...layout(
      [
        `${opts.inviterName} invited you to join "${opts.accountName}" on the e-signature service as ${opts.role === 'admin' ? 'an' : 'a'} ${opts.role}.`,
        `The invitation is valid for ${opts.days} days.`,
      ],
      { url: opts.url, label: 'Accept the invitation' },
      'If you did not expect this invitation, ignore this email.',
    ),
  };
}
