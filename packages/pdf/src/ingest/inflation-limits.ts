/** How much a PDF may decompress to (inflation.ts checks it at ingest); loads nothing. */
export interface InflationLimits {
  /** The most one stream may decode to, in bytes. */
  streamBytes: number;
  /** The most all streams of the document may decode to together, in bytes. */
  documentBytes: number;
}

const MiB = 1024 * 1024;

/**
 * Defaults (README, Configuration: DOCUMENT_STREAM_INFLATED_MB, DOCUMENT_INFLATED_MB). One stream:
 * a 600 dpi A4 colour scan is a 104 MB image, and a renderer holds an image about 2.5 times (its
 * samples and their RGBA) in a 480 MB worker, so more than 128 MB would not render anyway. The
 * document: a 25 MB, 200-page PDF of images decodes to about 25 MB; text PDFs to a few times their
 * size; 2 GB takes about 3 s to count.
 */
export const DEFAULT_INFLATION_LIMITS: InflationLimits = {
  streamBytes: 128 * MiB,
  documentBytes: 2048 * MiB,
};
