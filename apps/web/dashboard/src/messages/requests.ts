/** Words of sending and requests: the send form, bulk sends, copies, a request and the list of requests, the overview and its activity lines (pages/request/, request, request-extras, requests/, requests, send, send-fieldsets, send-form.ts, bulk-*, copies-*, copy-defaults, overview/, overview, format.ts). */
export const requests = {} as const;
