import { type HostMessageDetails, type HostMessageType, hostMessage } from '@esign/embed/protocol';

/**
 * Embedded signing (`<esign-form>`, docs/embed.md): when the page is served at /e/{token} for a
 * request sent with `embed: true`, the server names the origins allowed to frame it on <html>
 * (`data-embed-origins`, the same list as its frame-ancestors), and the page tells its host what
 * happens, in the messages of @esign/embed/protocol. Messages go to those origins only, never to
 * `*`: the browser drops one whose target is not the framing page's origin.
 */
const origins = (document.documentElement.dataset.embedOrigins ?? '').split(' ').filter(Boolean);

const embedded = origins.length > 0 && window.parent !== window;

export function notifyHost<T extends HostMessageType>(type: T, detail: HostMessageDetails[T]): void {
  if (!embedded) return;
  const message = hostMessage(type, detail);
  for (const origin of origins) window.parent.postMessage(message, origin);
}

/**
 * The height the content needs, reported whenever it changes, so the element sizes its frame to
 * the page (`html.embedded` lets status pages take their own height instead of the frame's).
 */
function reportHeight(): void {
  if (!embedded) return;
  document.documentElement.classList.add('embedded');
  const app = document.getElementById('app');
  if (!app) return;
  let last = -1;
  new ResizeObserver(() => {
    const height = Math.ceil(app.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    notifyHost('resize', { height });
  }).observe(app);
}

reportHeight();
