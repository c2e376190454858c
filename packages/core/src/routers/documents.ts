import { scopeOf } from '../context.ts';
import { VerificationOutput, VerifyDocumentInput } from '../contracts/documents.ts';
import { CoreError } from '../errors.ts';
import {
  decodeVerifyFile,
  publicVerifyRefusal,
  verifyDocument,
  verifyForPublic,
} from '../services/verify.ts';
import { actorProcedure, publicProcedure, router } from '../trpc.ts';

export const documentsRouter = router({
  // Read-only keys may verify documents (Authentication rule 5).
  verify: actorProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/documents/verify',
        tags: ['Documents'],
        summary: 'Check whether a PDF is a document this service sealed, unchanged, with intact signatures',
        contentTypes: ['application/json', 'multipart/form-data'],
      },
      request: { body: 'document', documents: [['file']] },
      errors: ['document_too_large', 'invalid_document', 'invalid_request'],
      mcp: {
        tool: 'verify_document',
        title: 'Verify a signed document',
        scope: 'read',
        description:
          'Checks a signed PDF (`file`: base64, optionally a data: URI; 25 MB at most): whether these exact bytes are a document, audit trail or combined file this service produced (produced_by_service, match), whether its PDF signatures are valid and cover the whole file (intact, signatures), and an overall verdict: authentic, intact_signature, modified or unsigned.',
      },
    })
    .input(VerifyDocumentInput)
    .output(VerificationOutput)
    .mutation(async ({ ctx, input }) => {
      const bytes = await decodeVerifyFile(input.file, ctx.deps);
      const scope = scopeOf(ctx.actor);
      return verifyDocument(ctx, bytes, { scope, tenant: String(scope.accountId) });
    }),

  // The public /verify page of the web app (issue 30): anyone holding a PDF, no key. Web only (no
  // REST route or MCP tool: those have verify above); limited per client address.
  verifyPublic: publicProcedure
    // Its one call is one document; an address past its minute is refused before the file is read.
    .meta({ request: { body: 'document', documents: [['file']], addressLimit: publicVerifyRefusal } })
    .input(VerifyDocumentInput)
    .output(VerificationOutput)
    .mutation(async ({ ctx, input }) => {
      if (!ctx.web)
        throw new CoreError('not_available', 'The public verify page is part of the web app only');
      return verifyForPublic(ctx, input.file, { ip: ctx.ip });
    }),
});
