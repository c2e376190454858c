import { SsoSettingsInput } from '../contracts/sso.ts';
import { removeSsoSettings, saveSsoSettings, ssoSettings } from '../services/sessions/sso-settings.ts';
import { adminProcedure, router } from '../trpc.ts';

// Single sign-on settings (issue 45 item 4; team page, admins). Dashboard only: no `openapi`/`mcp`
// meta. Signing in through the provider is the web adapter's /sso/start and /sso/callback.

export const ssoRouter = router({
  settings: adminProcedure.query(({ ctx }) => ssoSettings(ctx, ctx.actor.accountId)),

  save: adminProcedure
    .input(SsoSettingsInput)
    .mutation(({ ctx, input }) => saveSsoSettings(ctx, ctx.actor, input)),

  remove: adminProcedure.mutation(({ ctx }) => removeSsoSettings(ctx, ctx.actor)),
});
