import { ConnectedAppInput } from '../contracts/connected-apps.ts';
import { listConnectedApps, revokeConnectedApp } from '../services/oauth/connections.ts';
import { router, sessionProcedure } from '../trpc.ts';

/** The apps the signed-in user connected over OAuth (MCP), and disconnecting one (dashboard only). */
export const connectedAppsRouter = router({
  list: sessionProcedure.query(({ ctx }) => listConnectedApps(ctx.db, ctx.actor.userId, ctx.now())),

  revoke: sessionProcedure.input(ConnectedAppInput).mutation(async ({ ctx, input }) => {
    await revokeConnectedApp(ctx.db, ctx.actor.userId, input.client_id);
    return { client_id: input.client_id, revoked: true as const };
  }),
});
