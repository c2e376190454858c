import { createRuntime, LISTEN_HOST, stopOnSignal } from '@esign/core';
import { createHttpApp } from '@esign/http';
import { config } from './env.ts';
import { webApp } from './plugin.ts';

// Standalone web process (scaled deployments): the pages, the signing page (/s/{token}), signed
// file links and the /trpc endpoint they call; stateless, any number of them.
const rt = await createRuntime(config, 'web');
const app = createHttpApp(rt);
await app.register(webApp, rt);
await app.listen({ port: config.PORT, host: LISTEN_HOST });
stopOnSignal(async () => {
  await app.close();
  await rt.close();
});
