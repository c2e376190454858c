export {
  getEmbedSettings,
  setEmbedOrigins,
} from './origins.ts';
