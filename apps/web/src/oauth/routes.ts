import { limitClientRegistration } from '@esign/core/oauth';
import fastifyFormbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { consentRoutes } from './consent.ts';
import { createOAuthProvider, OAUTH_ROUTES, type OAuthServerOptions } from './provider.ts';

/** Paths oidc-provider answers itself (its router reads the raw request and writes the raw response). */
const PROVIDER_PATHS = [
  '/.well-known/oauth-authorization-server',
  '/.well-known/openid-configuration',
  OAUTH_ROUTES.authorization,
  // Where the consent page sends the browser back to finish the authorization.
  `${OAUTH_ROUTES.authorization}/:uid`,
  OAUTH_ROUTES.token,
  OAUTH_ROUTES.registration,
  // RFC 7592 client read, with the registration access token the registration answered.
  `${OAUTH_ROUTES.registration}/:clientId`,
  OAUTH_ROUTES.revocation,
  OAUTH_ROUTES.jwks,
];

/**
 * The OAuth authorization server of the MCP endpoint (operations.md §1): oidc-provider mounted on
 * its paths, and the consent page. Registered with one line in plugin.ts.
 */
export async function oauthServer(app: FastifyInstance, opts: OAuthServerOptions): Promise<void> {
  const provider = createOAuthProvider(opts);
  const callback = provider.callback();
  const publicUrl = new URL(opts.config.PUBLIC_URL);

  await app.register(async (scope) => {
    // oidc-provider parses its own bodies (form or JSON, at most 56 KB): the stream is left unread.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
    const forward = async (request: FastifyRequest, reply: FastifyReply) => {
      if (request.method === 'POST' && request.url.split('?')[0] === OAUTH_ROUTES.registration) {
        const wait = await limitClientRegistration(opts.db, request.ip, opts.now());
        if (wait !== null) {
          return reply
            .code(429)
            .header('Retry-After', String(wait))
            .send({
              error: 'rate_limited',
              error_description: `Too many registrations; retry after ${wait} s`,
            });
        }
      }
      reply.hijack();
      // Every URL it builds (metadata, redirects) starts with PUBLIC_URL, as every URL we return.
      request.raw.headers['x-forwarded-host'] = publicUrl.host;
      request.raw.headers['x-forwarded-proto'] = publicUrl.protocol.slice(0, -1);
      // Its client address is ours (TRUST_PROXY decided it), never the header a client sent.
      request.raw.headers['x-forwarded-for'] = request.ip;
      reply.raw.setHeader('X-Request-Id', String(request.id));
      // Its pages (the authorization error page, the form that posts back to the client) are never
      // shown in a frame: clickjacking (issue 41 item 7).
      reply.raw.setHeader('X-Frame-Options', 'DENY');
      reply.raw.setHeader('Content-Security-Policy', "frame-ancestors 'none'");
      await callback(request.raw, reply.raw);
    };
    for (const url of PROVIDER_PATHS) {
      scope.route({ method: ['GET', 'POST', 'OPTIONS'], url, handler: forward });
    }
  });

  await app.register(async (scope) => {
    await scope.register(fastifyFormbody, { bodyLimit: 16 * 1024 });
    consentRoutes(scope, provider, opts);
  });
}
