export {
  LINK_VISITS_PER_EMAIL_PER_HOUR,
  LINK_VISITS_PER_IP_PER_HOUR,
  LINK_VISITS_PER_TEMPLATE_PER_HOUR,
} from './policy.ts';
export {
  getSigningLink,
  linkUrl,
  type PresetSigner,
  type SigningLinkDto,
  updateSigningLink,
} from './settings.ts';
export { confirmLinkVisit, type LinkPage, openLink, startLinkVisit } from './visits.ts';
