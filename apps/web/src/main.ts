import { createRuntime, LISTEN_HOST, shutdownOnSignal } from '@esign/core';
import { createHttpApp, httpPart } from '@esign/http';
import { loadWebBuildOrExit } from './built.ts';
import { config } from './env.ts';
import { webApp } from './plugin.ts';

// Standalone web process (scaled deployments): the pages, the signing page (/s/{token}), signed
// file links and the /trpc endpoint they call; stateless, any number of them.
// The dashboard and signing page `pnpm build` made; without them, exit now naming that command.
await loadWebBuildOrExit();
const rt = await createRuntime(config, 'web');
const app = createHttpApp(rt);
await app.register(webApp, rt);
await app.listen({ port: config.PORT, host: LISTEN_HOST });
shutdownOnSignal(rt, [httpPart(app)]);
