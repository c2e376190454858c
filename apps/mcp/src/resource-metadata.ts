import type { Config } from '@esign/core';
import { mcpResource, OAUTH_SCOPES } from '@esign/core/oauth';
import type { FastifyInstance } from 'fastify';

/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728) of the MCP endpoint: the resource (its address)
 * and the authorization server that issues tokens for it (this origin). Served at the address the
 * 401's `resource_metadata` names and at the root well-known address.
 */
export function protectedResourceMetadata(app: FastifyInstance, config: Config): void {
  const document = {
    resource: mcpResource(config.PUBLIC_URL),
    authorization_servers: [config.PUBLIC_URL.replace(/\/+$/, '')],
    scopes_supported: [...OAUTH_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'E-Signature MCP server',
    resource_documentation: `${config.PUBLIC_URL.replace(/\/+$/, '')}/api/docs`,
  };
  for (const url of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
    app.get(url, async (_request, reply) =>
      reply
        .header('Access-Control-Allow-Origin', '*')
        .header('Cache-Control', 'public, max-age=3600')
        .send(document),
    );
  }
}
