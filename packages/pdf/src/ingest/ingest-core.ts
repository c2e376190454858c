/**
 * The ingest pipeline proper, run in the calling thread. `ingestDocument` (index.ts) normally
 * runs it in a worker thread (isolate.ts) so a pathological file cannot take the process down.
 */
import { DocumentInputError } from './errors.ts';
import { sha256Hex } from './hash.ts';
import { ingestImage } from './image.ts';
import { DEFAULT_INFLATION_LIMITS } from './inflation-limits.ts';
import { ingestPdf } from './pdf-ingest.ts';
import { sniffFileType } from './sniff.ts';
import type { IngestedDocument, IngestInput } from './types.ts';

export async function ingestInProcess(input: IngestInput): Promise<IngestedDocument> {
  const { bytes } = input ?? {};
  if (!(bytes instanceof Uint8Array) || bytes.length === 0)
    throw new DocumentInputError('invalid_document', 'The document is empty');
  const { kind, mimeType } = sniffFileType(bytes);
  if (kind === 'unknown')
    throw new DocumentInputError(
      'invalid_file_type',
      'The document is neither a PDF nor a supported image (PNG, JPEG, GIF, WebP, BMP, AVIF)',
    );
  try {
    const result =
      kind === 'pdf'
        ? await ingestPdf(bytes, {
            password: input.password,
            strictTags: input.tagErrors === 'error',
            inflation: { ...DEFAULT_INFLATION_LIMITS, ...input.inflation },
          })
        : await ingestImage(bytes, mimeType);
    const inputSha256 = sha256Hex(bytes);
    const sha256 = result.pdf === bytes ? inputSha256 : sha256Hex(result.pdf);
    return { ...result, mimeType, inputSha256, sha256 };
  } catch (e) {
    if (e instanceof DocumentInputError) throw e;
    // Malformed input can drive a parser into an unexpected exception (or a stack overflow):
    // report an unreadable document rather than an internal error.
    throw new DocumentInputError(
      'invalid_document',
      `The ${kind === 'pdf' ? 'PDF' : 'image'} could not be processed`,
      {
        cause: e,
      },
    );
  }
}
