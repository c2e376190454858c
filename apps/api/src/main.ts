import { createRuntime, LISTEN_HOST, shutdownOnSignal } from '@esign/core';
import { createHttpApp, httpPart } from '@esign/http';
import { config } from './env.ts';
import { restApi } from './plugin.ts';

// Standalone REST API process (scaled deployments); stateless, any number of them.
const rt = await createRuntime(config, 'api');
const app = createHttpApp(rt);
await app.register(restApi, rt);
await app.listen({ port: config.PORT, host: LISTEN_HOST });
shutdownOnSignal(rt, [httpPart(app)]);
