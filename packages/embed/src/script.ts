import { defineEsignForm } from './element.ts';

// The classic script the service serves at /embed/esign-form.js (bundled as an IIFE by
// apps/web/scripts/build-embed.ts): loaded with <script src> from the service's own address, it
// defines <esign-form> for signing links of that address only.
const src = (document.currentScript as HTMLScriptElement | null)?.src;
defineEsignForm({ service: new URL(src ?? location.href).origin });
