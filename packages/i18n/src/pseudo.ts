import { en } from './catalogues/en.ts';
import type { MessageFormatElement, MessageKey } from './core.ts';
import { pseudoLocalize } from './precompile.ts';

/**
 * The signers' catalogue in the pseudo-language `en-XA` (issue 42.6): every English message
 * accented between ⟦ and ⟧ (precompile.ts), its arguments, plurals and markup kept. Shown instead
 * of a signer's language where a test or a translator asks for it (the signing page:
 * `localStorage['esign.signing.locale'] = 'en-XA'`; the server: `usePseudoLocale`), so every word
 * a signer reads that is not from the catalogue stands out. Never a language a signer is offered.
 * The signing page's build writes it parsed ahead (scripts/build-signing.ts), as its own chunk.
 */
export function pseudoCatalogue(): Record<MessageKey, MessageFormatElement[]> {
  catalogue ??= Object.fromEntries(
    Object.entries(en).map(([key, message]) => [key, pseudoLocalize(message)]),
  ) as Record<MessageKey, MessageFormatElement[]>;
  return catalogue;
}

let catalogue: Record<MessageKey, MessageFormatElement[]> | undefined;
