import { createRuntime, LISTEN_HOST, shutdownOnSignal } from '@esign/core';
import { createHttpApp, httpPart } from '@esign/http';
import { config } from './env.ts';
import { mcpEndpoint } from './plugin.ts';

// Standalone MCP process (scaled deployments); stateless, any number of them.
const rt = await createRuntime(config, 'mcp');
const app = createHttpApp(rt);
await app.register(mcpEndpoint, rt);
await app.listen({ port: config.PORT, host: LISTEN_HOST });
shutdownOnSignal(rt, [httpPart(app)]);
