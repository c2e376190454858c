export * from './brands.ts';
export { contrastFailures, contrastRatio } from './contrast.ts';
export { cleanLogo, logoDataUri, MAX_LOGO_BYTES } from './logo.ts';
