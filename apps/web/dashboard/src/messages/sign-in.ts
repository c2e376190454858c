/** Words of passkeys and single sign-on (issue 45 items 2 and 4): the sign-in page, the account page, the team page. */
export const signIn = {
  // Sign-in page: a passkey alone, or single sign-on.
  'auth.passkey.sign_in': 'Sign in with a passkey',
  'auth.passkey.or': 'or',
  'auth.passkey.cancelled': 'The passkey request was cancelled or timed out. Try again.',
  // The second step with a passkey.
  'auth.second.passkey_lead': 'Confirm with one of your passkeys.',
  'auth.second.use_passkey': 'Use a passkey',
  'auth.second.or_code': 'Or enter a code from your authenticator app, or a recovery code.',

  // Account page: the user's passkeys.
  'account.passkeys.title': 'Passkeys',
  'account.passkeys.intro':
    'A passkey signs you in with your device’s fingerprint, face or PIN, without a password; after a password it also serves as the second step.',
  'account.passkeys.none': 'No passkey yet.',
  'account.passkeys.name': 'Name of the new passkey',
  'account.passkeys.name_hint': 'Such as “Work laptop” or “Phone”, to tell them apart.',
  'account.passkeys.add': 'Add a passkey',
  'account.passkeys.added': 'Passkey added',
  'account.passkeys.details': 'added {added} · {used, select, never {never used} other {last used {used}}}',
  'account.passkeys.synced': 'synced',
  'account.passkeys.rename': 'Rename',
  'account.passkeys.save': 'Save',
  'account.passkeys.renamed': 'Passkey renamed',
  'account.passkeys.remove': 'Remove',
  'account.passkeys.removed': 'Passkey removed',
  'account.passkeys.new_name': 'New name',

  // The page of a member who must set up a second step.
  'auth.required.or_passkey': 'Or add a passkey instead of an app:',

  // Single sign-on on the sign-in page.
  'auth.sso.button': 'Sign in with single sign-on',
  'auth.sso.email': 'Work email',
  'auth.sso.continue': 'Continue',
  'auth.sso.intro': 'Enter your work email: we send you to your company’s sign-in page.',
  'auth.sso.error.unknown_domain': 'No account signs in with single sign-on for this email domain.',
  'auth.sso.error.expired': 'This single sign-on attempt expired or was already used. Try again.',
  'auth.sso.error.provider':
    'Your identity provider’s answer could not be verified. Try again, or ask your admin.',
  'auth.sso.error.other_domain':
    'The provider signed you in with an address outside this account’s email domains.',
  'auth.sso.error.unverified': 'The provider did not confirm your email address.',
  'auth.sso.error.not_allowed': 'This user can no longer sign in; ask an admin of the account.',

  // Team page, admins: the account's OpenID Connect provider.
  'team.sso.title': 'Single sign-on (OpenID Connect)',
  'team.sso.intro':
    'Members sign in through your company’s identity provider (Entra ID, Okta, Google Workspace, Keycloak, Authentik, …). Register this redirect URI with it: {redirect}',
  'team.sso.issuer': 'Issuer URL',
  'team.sso.client_id': 'Client ID',
  'team.sso.client_secret': 'Client secret',
  'team.sso.client_secret_keep': 'Leave empty to keep the stored secret.',
  'team.sso.domains': 'Email domains',
  'team.sso.domains_hint':
    'Comma-separated, such as example.com. People with these addresses are sent to the provider.',
  'team.sso.default_role': 'Role of new users',
  'team.sso.role_claim': 'Role claim (optional)',
  'team.sso.role_claim_hint': 'A claim of the ID token, such as groups; mapped below.',
  'team.sso.role_map': 'Claim value → role (optional)',
  'team.sso.role_map_hint': 'One per line: esign-admins=admin',
  'team.sso.required': 'Require single sign-on for everyone but the break-glass admin',
  'team.sso.break_glass': 'Break-glass admin (email)',
  'team.sso.break_glass_hint': 'Keeps their password and passkeys, for when the provider is down.',
  'team.sso.save': 'Save single sign-on',
  'team.sso.saved': 'Single sign-on saved',
  'team.sso.remove': 'Turn off single sign-on',
  'team.sso.removed': 'Single sign-on turned off',
} as const;
