/** How much a PDF may decompress to (inflation.ts checks it at ingest); loads nothing. */
export interface InflationLimits {
  /** The most one stream may decode to, in bytes. */
  streamBytes: number;
  /** The most all streams of the document may decode to together, in bytes. */
  documentBytes: number;
}

const MiB = 1024 * 1024;

/**
 * Defaults (README, Configuration: DOCUMENT_STREAM_INFLATED_MB, DOCUMENT_INFLATED_MB): far above
 * any document a person signs (a 600 dpi A4 colour scan is a 100 MB image; a 25 MB, 200-page PDF
 * of images decodes to about 25 MB), far below what a renderer can hold in a 480 MB worker.
 */
export const DEFAULT_INFLATION_LIMITS: InflationLimits = {
  streamBytes: 256 * MiB,
  documentBytes: 2048 * MiB,
};
