import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Page } from 'playwright-core';

/** An MCP client's OAuth state, kept in memory: what a desktop assistant keeps in its settings. */
export class MemoryOAuthProvider implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier: string | undefined;
  authorizationUrl: URL | undefined;
  /** The `state` of the last authorization request (checked against the redirect). */
  lastState: string | undefined;

  private readonly redirect: string;
  private readonly opts: { name: string; metadataUrl?: string };

  constructor(redirect: string, opts: { name: string; metadataUrl?: string } = { name: 'Test assistant' }) {
    this.redirect = redirect;
    this.opts = opts;
  }

  get redirectUrl() {
    return this.redirect;
  }
  get clientMetadataUrl() {
    return this.opts.metadataUrl;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.opts.name,
      redirect_uris: [this.redirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  state() {
    this.lastState = crypto.randomUUID();
    return this.lastState;
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    if (!this.verifier) throw new Error('no code verifier saved');
    return this.verifier;
  }
}

const SECRET_NAMES = new Set([
  'access_token',
  'refresh_token',
  'code',
  'code_verifier',
  'client_secret',
  'registration_access_token',
  'token',
  'csrf_token',
  'password',
]);

const hide = (value: string) => `<redacted ${value.length} chars>`;

/** A URL or form body with its secrets replaced by their length. */
function redactParams(text: string): string {
  return text.replace(/([?&]|^)([a-z_]+)=([^&#\s]*)/g, (all, sep, name, value) =>
    SECRET_NAMES.has(name) && value ? `${sep}${name}=${hide(decodeURIComponent(value))}` : all,
  );
}

/** In JSON answers `code` is an error code, never a secret (authorization codes travel in URLs and forms). */
const JSON_SECRETS = new Set([...SECRET_NAMES].filter((n) => n !== 'code'));

function redactJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactJson);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        JSON_SECRETS.has(k) && typeof v === 'string' ? hide(v) : redactJson(v),
      ]),
    );
  }
  return value;
}

function redactBody(text: string): string {
  try {
    return JSON.stringify(redactJson(JSON.parse(text)));
  } catch {
    return redactParams(text);
  }
}

const clip = (s: string, max = 700) => (s.length > max ? `${s.slice(0, max)}… (${s.length} chars)` : s);

/** Requests and answers of a flow, secrets redacted: the closing note's transcript. */
export class Transcript {
  readonly lines: string[] = [];
  private readonly origin: string;

  constructor(origin: string) {
    this.origin = origin;
  }

  private path(url: string) {
    return redactParams(url.startsWith(this.origin) ? url.slice(this.origin.length) : url);
  }

  note(text: string) {
    this.lines.push(`# ${text}`);
  }

  /** A fetch that records each exchange (for the SDK's transport and auth calls). */
  fetch(): FetchLike {
    return async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      const method = init?.method ?? 'GET';
      const headers = new Headers(init?.headers);
      const auth = headers.get('authorization');
      const body = typeof init?.body === 'string' ? init.body : init?.body ? String(init.body) : '';
      this.lines.push(
        `> ${method} ${this.path(url)}${auth ? `  [Authorization: ${auth.split(' ')[0]} ${hide(auth.split(' ')[1] ?? '')}]` : ''}`,
      );
      if (body) this.lines.push(`>   ${clip(redactBody(body))}`);
      const res = await fetch(input, init);
      const text = await res.clone().text();
      const www = res.headers.get('www-authenticate');
      this.lines.push(`< ${res.status}${www ? `  WWW-Authenticate: ${www}` : ''}`);
      if (text) this.lines.push(`<   ${clip(redactBody(text))}`);
      return res;
    };
  }

  /** Records the browser's page loads, its sign-in call and the final redirect to the client. */
  watch(page: Page) {
    page.on('response', (res) => {
      const req = res.request();
      const signIn = req.method() === 'POST' && res.url().includes('/trpc/auth.');
      if (req.resourceType() !== 'document' && !signIn) return;
      const location = res.headers().location;
      this.lines.push(
        `browser ${req.method()} ${this.path(res.url())} -> ${res.status()}${location ? ` Location: ${this.path(location)}` : ''}`,
      );
    });
  }

  toString() {
    return this.lines.join('\n');
  }
}
