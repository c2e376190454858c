/** Words of signing in and the account: sign-in, sign-up, invitations, password reset, the account and its sessions, the team, API keys, connected apps (pages/auth/, account, team/, team, api-keys/, api-keys, connected-apps, admin-only, not-found). */
export const account = {} as const;
