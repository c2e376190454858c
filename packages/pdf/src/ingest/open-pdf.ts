/**
 * Opens a PDF with @libpdf/core (lenient parser with structure recovery, RC4/AES-128/AES-256
 * decryption) and classifies failures into the spec's error codes.
 */
import { PDF, PermissionDeniedError } from '@libpdf/core';
import { DocumentInputError } from './errors.ts';

export interface OpenedPdf {
  pdf: PDF;
  /** The file was encrypted; it will be saved without encryption. */
  decrypted: boolean;
  warnings: string[];
}

const ENCRYPT_MARKER = Buffer.from('/Encrypt');

/** Whether the file declares encryption (its trailer's /Encrypt key is never itself encrypted). */
function declaresEncryption(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).lastIndexOf(ENCRYPT_MARKER) >= 0;
}

async function tryLoad(bytes: Uint8Array, password: string | undefined): Promise<PDF | Error> {
  try {
    return await PDF.load(bytes, password === undefined ? {} : { credentials: password });
  } catch (e) {
    return e instanceof Error ? e : new Error(String(e));
  }
}

const encryptedError = (password: string | undefined) =>
  new DocumentInputError(
    'pdf_encrypted',
    password === undefined
      ? 'The PDF is password-protected; send its password in `password`'
      : 'The password is wrong: the PDF could not be opened with the password given',
  );

export async function openPdf(bytes: Uint8Array, password: string | undefined): Promise<OpenedPdf> {
  const warnings: string[] = [];
  let loaded = await tryLoad(bytes, password);
  const failed = (r: PDF | Error) => r instanceof Error || (r.isEncrypted && !r.isAuthenticated);

  if (failed(loaded) && password !== undefined && declaresEncryption(bytes)) {
    // A password that does not match may still be unnecessary: files with only an owner
    // password (restrictions, no open password) open with the empty user password.
    const withoutPassword = await tryLoad(bytes, undefined);
    if (!failed(withoutPassword)) {
      loaded = withoutPassword;
      warnings.push('The PDF opens without a password; the password given was not used');
    }
  }
  if (loaded instanceof Error) {
    if (declaresEncryption(bytes)) throw encryptedError(password);
    throw new DocumentInputError(
      'invalid_document',
      `The PDF is damaged and could not be read (${loaded.message})`,
      {
        cause: loaded,
      },
    );
  }
  const pdf = loaded;
  if (pdf.isEncrypted && !pdf.isAuthenticated) throw encryptedError(password);
  if (!pdf.isEncrypted && password !== undefined)
    warnings.push('The PDF is not encrypted; the password given was not used');

  let decrypted = false;
  if (pdf.isEncrypted) {
    try {
      pdf.removeProtection();
      decrypted = true;
    } catch (e) {
      if (e instanceof PermissionDeniedError)
        throw new DocumentInputError(
          'pdf_encrypted',
          "The PDF's security settings forbid changes, which placing fields needs; send its owner password in `password`",
        );
      throw e;
    }
  }
  if (pdf.recoveredViaBruteForce) warnings.push('The PDF was damaged; its structure was rebuilt');
  return { pdf, decrypted, warnings };
}
