import { resetUserSecondStep } from '@esign/core';
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
        ? `Removed the authenticator app of ${r.user.email} and signed out ${r.signed_out_sessions} session(s); they sign in with their password now (and set up a new app if their account requires one)`
        : `${r.user.email} had no authenticator app; signed out ${r.signed_out_sessions} session(s)`,
  },
};
