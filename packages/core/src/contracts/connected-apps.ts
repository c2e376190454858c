import { z } from 'zod';

export const ConnectedAppInput = z.object({ client_id: z.string().min(1).max(2000) });
