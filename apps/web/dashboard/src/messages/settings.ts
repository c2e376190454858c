/** Words of webhooks, billing, verification and the shared parts: buttons, dialogs, tables, errors from the server (pages/webhooks/, webhooks, pages/billing/, billing, billing-errors.ts, verify, ui, trpc.ts, table, shell). */
export const settings = {} as const;
