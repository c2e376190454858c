import { authenticateSession, isSameOrigin, type SessionAuth } from '@esign/core';
import { mcpResource, OAUTH_SCOPES, oauthSubject, safeEqual, saveClient, scopesOf } from '@esign/core/oauth';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { CONSENT_PATH, type OAuthServerOptions } from './provider.ts';
import { consentPage, oauthErrorPage } from './views.ts';

type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;
type ConsentRequest = FastifyRequest<{ Params: { uid: string }; Body: Record<string, string | undefined> }>;

/** The page may post to us, and the answer then redirects to the client: both are allowed form targets. */
function consentCsp(redirectUri: string): string {
  let target = '';
  try {
    const url = new URL(redirectUri);
    target = url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol;
  } catch {}
  return [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    `form-action 'self' ${target}`.trim(),
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

function html(reply: FastifyReply, status: number, body: string, csp: string) {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('Cache-Control', 'no-store')
    .header('Referrer-Policy', 'same-origin')
    .header('X-Content-Type-Options', 'nosniff')
    .header('X-Frame-Options', 'DENY')
    .header('Content-Security-Policy', csp)
    .send(body);
}

const fail = (reply: FastifyReply, status: number, error: string, description: string) =>
  html(reply, status, oauthErrorPage(error, description), consentCsp(''));

/**
 * The consent page of /oauth/authorize (operations.md §5): the dashboard's sign-in first (a signed-out
 * user goes to /login and comes back here), then the client's name and where it will redirect, and
 * Full access / View only. The form carries the session's CSRF token and must come from our origin.
 */
export function consentRoutes(app: FastifyInstance, provider: Provider, opts: OAuthServerOptions): void {
  const path = (uid: string) => `${CONSENT_PATH}/${uid}`;

  const load = async (request: ConsentRequest, reply: FastifyReply) => {
    let interaction: Interaction;
    try {
      interaction = await provider.interactionDetails(request.raw, reply.raw);
    } catch {
      return { error: fail(reply, 400, 'expired', 'This sign-in took too long or was already used') };
    }
    if (interaction.uid !== request.params.uid) {
      return { error: fail(reply, 400, 'invalid_request', 'This page does not belong to your sign-in') };
    }
    const session = await authenticateSession(opts.db, opts.config, {
      cookieHeader: request.headers.cookie,
      now: opts.now(),
    });
    const client = await provider.Client.find(String(interaction.params.client_id));
    if (!client) return { error: fail(reply, 400, 'invalid_client', 'The app is not known') };
    return { interaction, session, client };
  };

  app.get<{ Params: { uid: string } }>(`${CONSENT_PATH}/:uid`, async (request, reply) => {
    const loaded = await load(request as ConsentRequest, reply);
    if ('error' in loaded) return loaded.error;
    const { interaction, session, client } = loaded;
    if (!session) return reply.redirect(`/login?next=${encodeURIComponent(path(request.params.uid))}`, 303);
    const redirectUri = String(interaction.params.redirect_uri ?? client.redirectUris?.[0] ?? '');
    return html(
      reply,
      200,
      consentPage({
        action: path(request.params.uid),
        csrfToken: session.csrfToken,
        clientName: client.clientName ?? client.clientId,
        clientId: client.clientId,
        clientIdIsUrl: /^https:\/\//.test(client.clientId),
        redirectUri,
        userEmail: session.actor.userEmail,
        environment: session.actor.environment,
        viewer: session.actor.userRole === 'viewer',
      }),
      consentCsp(redirectUri),
    );
  });

  app.post<{ Params: { uid: string }; Body: Record<string, string | undefined> }>(
    `${CONSENT_PATH}/:uid`,
    async (request, reply) => {
      const loaded = await load(request, reply);
      if ('error' in loaded) return loaded.error;
      const { interaction, session, client } = loaded;
      const refused = csrfRefusal(opts, request, session);
      if (refused) return fail(reply, 403, 'forbidden', refused);
      const access = request.body?.access;
      let result: Record<string, unknown>;
      if (access === 'full' || access === 'read') {
        result = await approve(provider, opts, session!, client, access);
      } else if (access === 'deny') {
        result = { error: 'access_denied', error_description: 'The user did not connect the app' };
      } else {
        return fail(reply, 400, 'invalid_request', 'Choose Full access, View only or Cancel');
      }
      const redirectTo = await provider.interactionResult(request.raw, reply.raw, result, {
        mergeWithLastSubmission: false,
      });
      return reply.redirect(redirectTo, 303);
    },
  );
}

/** Why a consent post is refused: no session, another site's form, or a stale CSRF token. */
function csrfRefusal(opts: OAuthServerOptions, request: ConsentRequest, session: SessionAuth | null) {
  if (!session) return 'Your session has ended: sign in again and reconnect the app';
  const origin = typeof request.headers.origin === 'string' ? request.headers.origin : null;
  if (!isSameOrigin(opts.config, origin)) return 'This request came from another site and was refused';
  const given = Buffer.from(request.body?.csrf_token ?? '');
  if (!safeEqual(given, Buffer.from(session.csrfToken))) {
    return 'The security token of this page is missing or out of date; reload the page and try again';
  }
  return null;
}

/** A grant for the MCP resource: Full access (read write) or View only (read; write refused). */
async function approve(
  provider: Provider,
  opts: OAuthServerOptions,
  session: SessionAuth,
  client: NonNullable<Awaited<ReturnType<Provider['Client']['find']>>>,
  access: 'full' | 'read',
) {
  const subject = oauthSubject(session.actor.userId, session.actor.environment);
  const resource = mcpResource(opts.config.PUBLIC_URL);
  const grant = new provider.Grant({ accountId: subject, clientId: client.clientId });
  const granted = scopesOf(access);
  grant.addResourceScope(resource, granted.join(' '));
  grant.addOIDCScope(granted.join(' '));
  const refused = OAUTH_SCOPES.filter((s) => !granted.includes(s));
  if (refused.length) {
    grant.rejectResourceScope(resource, refused.join(' '));
    grant.rejectOIDCScope(refused.join(' '));
  }
  const grantId = await grant.save();
  // A client known by its metadata document is recorded so the dashboard can name it.
  if (/^https:\/\//.test(client.clientId)) {
    await saveClient(opts.db, client.clientId, {
      metadata: client.metadata(),
      metadataUrl: client.clientId,
      now: opts.now(),
    });
  }
  return { login: { accountId: subject }, consent: { grantId } };
}
