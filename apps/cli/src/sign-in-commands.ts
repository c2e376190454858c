import { makeSsoOptional, resetUserSecondStep } from '@esign/core/operator';
import { type Command, str } from './commands.ts';

// `esign user reset-2fa`: the way back in for a user who lost their authenticator app and their
// recovery codes (docs/sign-in.md, "Recovering a locked-out admin").

export const signInCommands: Record<string, Command> = {
  'user reset-2fa': {
    usage: 'user reset-2fa --email E',
    options: { email: { type: 'string' } },
    run: (ctx, o) => resetUserSecondStep(ctx, str(o, 'email', true)),
    text: (r) =>
      r.second_step_removed
        ? `Removed the authenticator app and ${r.passkeys_removed} passkey(s) of ${r.user.email} and signed out ${r.signed_out_sessions} session(s); they sign in with their password now (and set up a new second step if their account requires one)`
        : `${r.user.email} had no authenticator app or passkey; signed out ${r.signed_out_sessions} session(s)`,
  },
  'account sso-optional': {
    usage: 'account sso-optional --email E',
    options: { email: { type: 'string' } },
    run: (ctx, o) => makeSsoOptional(ctx, str(o, 'email', true)),
    text: (r) =>
      r.changed
        ? `Account ${r.account_id} no longer requires single sign-on: its members may sign in with their passwords and passkeys again`
        : `Account ${r.account_id} did not require single sign-on`,
  },
};
