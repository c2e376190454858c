// @esign/embed: embedded signing in the integrator's page (docs/embed.md). The element, its typed
// events and the message protocol it shares with the signing page; the React wrapper is
// `@esign/embed/react`.
export {
  type DefineOptions,
  defineEsignForm,
  type EsignFormElement,
  type EsignFormEventMap,
  parseSigningUrl,
  TAG_NAME,
} from './element.ts';
export type {
  DeclinedDetail,
  ErrorDetail,
  FieldCompletedDetail,
  HostMessage,
  HostMessageDetails,
  HostMessageType,
  LoadedDetail,
  ResizeDetail,
  SignedDetail,
} from './protocol.ts';
