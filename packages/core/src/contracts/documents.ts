import { z } from 'zod';
import { SigningBrandOutput } from './brands.ts';

export const VerifyDocumentInput = z.object({
  file: z
    .string()
    .describe(
      'The PDF to check: base64, optionally with a data: URI prefix (25 MB at most). Multipart uploads send it as the `file` part.',
    ),
});

const VerificationChangeOutput = z.object({
  revision: z.number().int().describe('the revision that made the change (1 = the original file)'),
  kind: z.enum([
    'dss',
    'document_timestamp',
    'signature',
    'form_fill',
    'page_content',
    'annotation',
    'pages',
    'form',
    'catalog',
    'object',
    'appended_bytes',
    'unreadable_revision',
  ]),
  page: z.number().int().nullable().describe('the page it shows on, when it belongs to a page'),
  description: z.string(),
});

const ModificationLevelOutput = z.enum(['none', 'validation_data', 'form_filling', 'annotations', 'other']);

const VerificationSignatureOutput = z.object({
  valid: z
    .boolean()
    .describe('the signed bytes match the signature and the signature verifies with its certificate'),
  covers_whole_document: z
    .boolean()
    .describe('the signature covers the file from its first to its last byte'),
  modified_after_signing: z
    .boolean()
    .describe(
      'a later revision changed something this signature does not allow (anything but a DSS, document timestamps, further signatures, or form filling a certification allows); a later signature never covers it',
    ),
  kind: z
    .enum(['certification', 'approval', 'document_timestamp'])
    .describe('certification (DocMDP), approval signature, or RFC 3161 document timestamp'),
  level: z
    .enum(['B-B', 'B-T', 'B-LT', 'B-LTA'])
    .nullable()
    .describe(
      'PAdES baseline level this signature reaches; null for document timestamps and invalid signatures',
    ),
  timestamp_time: z
    .string()
    .nullable()
    .describe('the time a time-stamping authority certified for this signature (trusted time), else null'),
  timestamp_authority: z
    .string()
    .nullable()
    .optional()
    .describe(
      'the time-stamping authority whose time counts for this signature (or that signed this document timestamp); absent when no timestamp counts',
    ),
  timestamp_trusted: z
    .boolean()
    .optional()
    .describe(
      "that authority's certificate chains to a trusted root (the Mozilla root store); absent without one",
    ),
  timestamp_issues: z
    .array(z.string())
    .optional()
    .describe(
      'timestamps that do not count for the level (an impossible time order, a certificate that is not a time-stamping one), each named with why; absent when none',
    ),
  revision: z
    .number()
    .int()
    .describe('the revision of the file this signature signed (1 = the original file)'),
  changes_after_signing: z
    .array(VerificationChangeOutput)
    .describe('what later revisions changed that this signature does not allow'),
  modification_level: ModificationLevelOutput.describe(
    'the most any later revision changed, allowed or not: none, validation_data (DSS, document timestamps), form_filling (fields filled, signatures added), annotations, or other',
  ),
  modifications_permitted: ModificationLevelOutput.describe(
    'the most this signature permits later revisions to change: validation_data after a certification with DocMDP P=1, form_filling after P=2 or without a certification, annotations after P=3',
  ),
  modifications: z
    .array(VerificationChangeOutput)
    .describe('every change after this signature, allowed or not, oldest revision first'),
  weak_algorithms: z
    .array(z.string())
    .optional()
    .describe('algorithms the signature uses that verify but are weak (SHA-1); absent when none'),
  signer_subject: z.string().nullable(),
  signer_certificate_sha256: z.string().nullable(),
  certificate_is_service: z.boolean().describe("signed with this service's sealing certificate"),
  signing_time: z.string().nullable(),
  reason: z.string().nullable(),
  error: z.string().nullable().describe('why the signature is not valid'),
});

export const VerificationOutput = z.object({
  object: z.literal('verification'),
  verdict: z
    .enum(['authentic', 'intact_signature', 'modified', 'unsigned'])
    .describe(
      'authentic: exactly a file this service produced, signatures intact; intact_signature: intact signatures but not a file this service produced; modified: signed but changed since, or a signature does not verify; unsigned: no signature',
    ),
  sha256: z.string(),
  byte_size: z.number().int(),
  produced_by_service: z
    .boolean()
    .describe(
      "these exact bytes are a document, audit trail, combined file or signer's copy this service produced",
    ),
  match: z
    .object({
      kind: z
        .enum(['document', 'audit_trail', 'combined', 'signer_copy'])
        .describe(
          "signer_copy: a signer's own sealed copy, made when they signed (before the request completed)",
        ),
      name: z.string(),
      signature_request_id: z
        .number()
        .int()
        .nullable()
        .describe("null unless the request belongs to the caller's account and environment"),
      test_mode: z.boolean(),
      signer_number: z
        .number()
        .int()
        .optional()
        .describe("signer_copy only: whose copy it is, the signer's place in the request (1 = first)"),
      final_document_exists: z
        .boolean()
        .optional()
        .describe(
          'signer_copy only: the final documents, sealed once everyone signed, exist and supersede this copy',
        ),
      brand: SigningBrandOutput.optional().describe(
        "extension (issue 44): the request's brand as its signers saw it (name, logo, colours, support contact); absent without one",
      ),
    })
    .nullable(),
  intact: z
    .boolean()
    .describe('signed, every signature valid, and no later revision changed what any signature allows'),
  certificate_is_service: z
    .boolean()
    .describe(
      "the last signature (document timestamps aside) was made with this service's sealing certificate",
    ),
  level: z
    .enum(['B-B', 'B-T', 'B-LT', 'B-LTA'])
    .nullable()
    .describe('PAdES level of the last signature (document timestamps aside), null when unsigned or invalid'),
  summary: z
    .string()
    .describe('the verdict in one sentence: what changed, on which page, after whose signature'),
  changes: z
    .array(VerificationChangeOutput)
    .describe('every change after a signature that the signature does not allow, once, in file order'),
  signatures: z.array(VerificationSignatureOutput),
  rendering_check: z
    .object({
      status: z
        .enum(['not_needed', 'same', 'differs', 'skipped'])
        .describe(
          "pdf.js's last check before an intact verdict (issue 40): not_needed when nothing follows the first signature or the file is already modified; same; differs (a change the analysis missed, listed in changes); skipped (over its page or time bound, see detail)",
        ),
      pages_compared: z.number().int().nullable(),
      page: z.number().int().nullable().describe('differs: the page that differs (0: the file as a whole)'),
      detail: z.string().nullable().describe('differs: what differs; skipped: why the check stopped'),
    })
    .describe(
      'the rendering guard: every page of the whole file drawn with pdf.js and compared with the signed revision',
    ),
});
