import { z } from 'zod';

export const VerifyDocumentInput = z.object({
  file: z
    .string()
    .describe(
      'The PDF to check: base64, optionally with a data: URI prefix (25 MB at most). Multipart uploads send it as the `file` part.',
    ),
});

export const VerificationSignatureOutput = z.object({
  valid: z
    .boolean()
    .describe('the signed bytes match the signature and the signature verifies with its certificate'),
  covers_whole_document: z
    .boolean()
    .describe('the signature covers the file from its first to its last byte'),
  modified_after_signing: z
    .boolean()
    .describe('bytes were added after this signature that no later valid signature covers'),
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
    .describe('these exact bytes are a document, audit trail or combined file this service produced'),
  match: z
    .object({
      kind: z.enum(['document', 'audit_trail', 'combined']),
      name: z.string(),
      signature_request_id: z
        .number()
        .int()
        .nullable()
        .describe("null unless the request belongs to the caller's account and environment"),
      test_mode: z.boolean(),
    })
    .nullable(),
  intact: z.boolean().describe('signed, every signature valid, the last one covering every byte'),
  certificate_is_service: z
    .boolean()
    .describe("the last signature was made with this service's sealing certificate"),
  signatures: z.array(VerificationSignatureOutput),
});
