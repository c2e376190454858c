export {
  embedFrameOrigins,
  embedScriptUrl,
  getEmbedSettings,
  MAX_EMBED_ORIGINS,
  normaliseOrigin,
  setEmbedOrigins,
} from './origins.ts';
