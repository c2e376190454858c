import { type CSSProperties, createElement, type ReactElement, useEffect, useRef } from 'react';
import { defineEsignForm, type EsignFormElement, type EsignFormEventMap } from './element.ts';
import type { HostMessage } from './protocol.ts';

/**
 * `<EsignForm>`: the `<esign-form>` element for React (docs/embed.md). Renders the element, defines
 * it on first mount, and calls the `on…` props with each event's message.
 */
export interface EsignFormProps {
  /** the signer's `signing_url` (from POST /signature_requests with `embed: true`) */
  signingUrl: string;
  /** a fixed CSS height; without it the frame follows the signing page's height */
  height?: string;
  /** the largest height the frame grows to (CSS, default `100vh`) */
  maxHeight?: string;
  /** the frame's accessible name (default "Sign document") */
  title?: string;
  /** the service's origin: a `signingUrl` elsewhere is refused with an `invalid_signing_url` error */
  service?: string;
  className?: string;
  style?: CSSProperties;
  onLoaded?: (message: HostMessage<'loaded'>) => void;
  onFieldCompleted?: (message: HostMessage<'field-completed'>) => void;
  onSigned?: (message: HostMessage<'signed'>) => void;
  onDeclined?: (message: HostMessage<'declined'>) => void;
  onError?: (message: HostMessage<'error'>) => void;
}

type CallbackName = 'onLoaded' | 'onFieldCompleted' | 'onSigned' | 'onDeclined' | 'onError';

/** Which prop each event calls. */
const CALLBACKS = {
  'esign:loaded': 'onLoaded',
  'esign:field-completed': 'onFieldCompleted',
  'esign:signed': 'onSigned',
  'esign:declined': 'onDeclined',
  'esign:error': 'onError',
} as const satisfies Partial<Record<keyof EsignFormEventMap, CallbackName>>;

export function EsignForm(props: EsignFormProps): ReactElement {
  const ref = useRef<EsignFormElement>(null);
  // The latest callbacks, read when an event arrives: new functions each render re-add nothing.
  const latest = useRef(props);
  useEffect(() => {
    latest.current = props;
  });

  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const listeners = Object.entries(CALLBACKS).map(([type, name]) => {
      const listener = (event: Event) => {
        const callback = latest.current[name] as ((message: unknown) => void) | undefined;
        callback?.((event as CustomEvent<unknown>).detail);
      };
      element.addEventListener(type, listener);
      return () => element.removeEventListener(type, listener);
    });
    // Defined after the listeners are on: an element upgraded now reports a bad URL to them.
    defineEsignForm();
    return () => {
      for (const remove of listeners) remove();
    };
  }, []);

  return createElement('esign-form', {
    ref,
    'signing-url': props.signingUrl,
    height: props.height,
    'max-height': props.maxHeight,
    'frame-title': props.title,
    service: props.service,
    className: props.className,
    style: { display: 'block', ...props.style },
  });
}
