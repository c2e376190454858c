import { scopeOf } from '../context.ts';
import {
  BrandIdInput,
  BrandListOutput,
  BrandOutput,
  CreateBrandInput,
  DeletedBrandOutput,
  ListBrandsInput,
  PreviewBrandEmailInput,
  PreviewBrandEmailOutput,
  UpdateBrandInput,
} from '../contracts/brands.ts';
import { createBrand, deleteBrand, getBrand, listBrands, updateBrand } from '../services/brands/index.ts';
import { previewBrandEmail } from '../services/brands/preview.ts';
import { actorProcedure, adminProcedure, adminReadProcedure, router } from '../trpc.ts';

// Brands (issue 44, an extension of the specification; docs/branding.md). Anyone of the account
// reads them (to choose one when sending); only admins change them. MCP reads them through
// get_account (`brands`) and chooses one with `brand_id` on send_signature_request: the 18 tool
// names stay as the specification lists them.

const tags = ['Brands'];
const logoErrors = ['document_too_large', 'invalid_document', 'invalid_file_type'] as const;

export const brandsRouter = router({
  list: actorProcedure
    .meta({
      openapi: { method: 'GET', path: '/brands', tags, summary: "List the account's brands, newest first" },
    })
    .input(ListBrandsInput)
    .output(BrandListOutput)
    .query(({ ctx, input }) => listBrands(ctx.db, scopeOf(ctx.actor), input)),

  get: actorProcedure
    .meta({ openapi: { method: 'GET', path: '/brands/{id}', tags, summary: 'Get a brand with its logo' } })
    .input(BrandIdInput)
    .output(BrandOutput)
    .query(({ ctx, input }) => getBrand(ctx.db, scopeOf(ctx.actor), input.id)),

  create: adminProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/brands',
        tags,
        summary: 'Create a brand (admins): name, logo, colours, sender identity',
      },
      successStatus: 201,
      request: { body: 'logo' },
      errors: [...logoErrors],
    })
    .input(CreateBrandInput)
    .output(BrandOutput)
    .mutation(({ ctx, input }) => createBrand(ctx, ctx.actor, input)),

  update: adminProcedure
    .meta({
      openapi: {
        method: 'PATCH',
        path: '/brands/{id}',
        tags,
        summary: 'Update a brand (admins; PUT is an alias)',
      },
      request: { body: 'logo' },
      errors: [...logoErrors],
    })
    .input(UpdateBrandInput)
    .output(BrandOutput)
    .mutation(({ ctx, input }) => updateBrand(ctx, ctx.actor, input)),

  delete: adminProcedure
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/brands/{id}',
        tags,
        summary: 'Delete a brand (admins); what named it shows the default brand',
      },
    })
    .input(BrandIdInput)
    .output(DeletedBrandOutput)
    .mutation(({ ctx, input }) => deleteBrand(ctx, ctx.actor, input.id)),

  // The dashboard's preview (no REST route): the email that goes out, from the code that sends it.
  preview: adminReadProcedure
    .input(PreviewBrandEmailInput)
    .output(PreviewBrandEmailOutput)
    .query(({ ctx, input }) => previewBrandEmail(ctx.db, scopeOf(ctx.actor), input)),
});
