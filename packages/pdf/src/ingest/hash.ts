import { createHash } from 'node:crypto';

/** SHA-256 (hex) of a file's bytes: computed in the pool's workers, where the bytes are anyway. */
export const sha256Hex = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');
