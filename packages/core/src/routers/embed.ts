import { z } from 'zod';
import { getEmbedSettings, setEmbedOrigins } from '../services/embed/index.ts';
import { actorProcedure, adminProcedure, router } from '../trpc.ts';

const EmbedSettingsOutput = z.object({
  object: z.literal('embed_settings'),
  origins: z.array(z.string()),
  script_url: z.string(),
});

/** The origins allowed to embed signing pages (dashboard, admins; like webhooks, no REST route). */
export const embedRouter = router({
  get: actorProcedure.output(EmbedSettingsOutput).query(({ ctx }) => getEmbedSettings(ctx, ctx.actor)),
  update: adminProcedure
    .input(z.object({ origins: z.array(z.string().max(300)).max(100) }))
    .output(EmbedSettingsOutput)
    .mutation(({ ctx, input }) => setEmbedOrigins(ctx, ctx.actor, input.origins)),
});
