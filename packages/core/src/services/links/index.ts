export {
  getSigningLink,
  updateSigningLink,
} from './settings.ts';
export { confirmLinkVisit, openLink, startLinkVisit } from './visits.ts';
