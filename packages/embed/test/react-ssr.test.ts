import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { EsignForm } from '../src/react.ts';

// The React wrapper on a server (docs/embed.md, The package): importing @esign/embed defines
// nothing and does not fail without a DOM, and server rendering writes the bare element with its
// attributes; the browser defines it and opens the frame on mount.

describe('<EsignForm> rendered on a server (issue 48.3)', () => {
  it('writes <esign-form> with the signing URL and sizes as attributes, and no frame', () => {
    const html = renderToString(
      createElement(EsignForm, {
        signingUrl: 'https://sign.example.com/s/abcdefghijklmnopqrstuvwxyz',
        maxHeight: '70vh',
        title: 'Sign the lease',
        className: 'lease',
      }),
    );
    expect(html).toContain('<esign-form');
    expect(html).toContain('signing-url="https://sign.example.com/s/abcdefghijklmnopqrstuvwxyz"');
    expect(html).toContain('max-height="70vh"');
    expect(html).toContain('frame-title="Sign the lease"');
    expect(html).toContain('class="lease"');
    expect(html).toContain('style="display:block"');
    expect(html).not.toContain('<iframe');
    expect(html).not.toMatch(/\sheight=/);
  });
});
