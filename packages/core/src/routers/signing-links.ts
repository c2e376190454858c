import { scopeOf } from '../context.ts';
import {
  LinkConfirmInput,
  LinkConfirmOutput,
  LinkPageOutput,
  LinkStartInput,
  LinkStartOutput,
  LinkTokenInput,
  SigningLinkIdInput,
  SigningLinkOutput,
  UpdateSigningLinkInput,
} from '../contracts/signing-links.ts';
import {
  confirmLinkVisit,
  getSigningLink,
  openLink,
  startLinkVisit,
  updateSigningLink,
} from '../services/links/index.ts';
import { actorProcedure, publicProcedure, router, writeProcedure } from '../trpc.ts';

const tags = ['Templates'];

/**
 * A template's public signing link (source `link`, docs/sending.md). Its settings are REST
 * operations of the template; no MCP tool (the specification fixes the 18 tools).
 */
export const signingLinksRouter = router({
  get: actorProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/templates/{id}/signing_link',
        tags,
        summary: "Get a template's public signing link settings",
      },
    })
    .input(SigningLinkIdInput)
    .output(SigningLinkOutput)
    .query(({ ctx, input }) => getSigningLink(ctx, scopeOf(ctx.actor), input.id)),

  update: writeProcedure
    .meta({
      openapi: {
        method: 'PATCH',
        path: '/templates/{id}/signing_link',
        tags,
        summary:
          "Turn a template's public signing link on or off, set its role, pre-assigned signers and cap",
      },
      errors: ['template_archived'],
    })
    .input(UpdateSigningLinkInput)
    .output(SigningLinkOutput)
    .mutation(({ ctx, input }) => updateSigningLink(ctx, ctx.actor, input)),
});

/** The public page at /l/{token} calls these (no API key: the link's token is the credential). */
export const linksRouter = router({
  open: publicProcedure
    .input(LinkTokenInput)
    .output(LinkPageOutput)
    .query(({ ctx, input }) => openLink(ctx, input.token)),

  start: publicProcedure
    .input(LinkStartInput)
    .output(LinkStartOutput)
    .mutation(({ ctx, input }) =>
      startLinkVisit(ctx, input.token, {
        name: input.name,
        email: input.email,
        ip: ctx.ip,
        ...(input.locale ? { locale: input.locale } : {}),
      }),
    ),

  confirm: publicProcedure
    .input(LinkConfirmInput)
    .output(LinkConfirmOutput)
    .mutation(({ ctx, input }) => confirmLinkVisit(ctx, input)),
});
