/**
 * Embedded signing (`<esign-form>`, docs/sending.md): when the page is served at /e/{token} for a
 * request sent with `embed: true`, the server names the origins allowed to frame it on <html>
 * (`data-embed-origins`, the same list as its frame-ancestors), and the page tells its host what
 * happens. Messages go to those origins only, never to `*`.
 */
export type HostEvent = 'loaded' | 'completed' | 'declined';

const origins = (document.documentElement.dataset.embedOrigins ?? '').split(' ').filter(Boolean);

const embedded = origins.length > 0 && window.parent !== window;

export function notifyHost(type: HostEvent, detail: Record<string, unknown> = {}): void {
  if (!embedded) return;
  for (const origin of origins) {
    window.parent.postMessage({ source: 'esign-form', type, ...detail }, origin);
  }
}
