/** Words of signing in and the account: sign-in, sign-up, invitations, password reset, the account and its sessions, the team, API keys, connected apps (pages/auth/, account, team/, team, api-keys/, api-keys, connected-apps, admin-only, not-found). */
export const account = {
  // The sign-in pages' card and footer; {endpoint} is the MCP endpoint's path.
  'auth.footer': 'Developers: <link>API reference</link> · MCP endpoint at {endpoint}',
  'auth.back_to_sign_in': 'Back to sign-in',
  // Fields shared by the sign-in forms.
  'auth.field.name': 'Your name',
  'auth.field.email': 'Email',
  'auth.field.password': 'Password',
  'auth.field.password_hint': 'At least 8 characters.',

  // Sign-in page (/login): a password, or a one-time link by email.
  'auth.login.title': 'Sign in',
  'auth.login.new_here': 'New here? <link>Create an account</link>',
  'auth.login.tabs': 'How to sign in',
  'auth.login.tab_password': 'Password',
  'auth.login.tab_link': 'Email me a link',
  'auth.login.link_intro': 'No password needed: we email you a link that signs you in once.',
  'auth.login.forgot': 'Forgot your password?',
  'auth.login.submit': 'Sign in',
  'auth.login.send_link': 'Email me a sign-in link',
  'auth.login.send_reset': 'Email me a reset link',
  'auth.login.link_sent':
    'If <b>{email}</b> belongs to an account, an email is on its way with a sign-in link (valid for 15 minutes). Check your spam folder if it does not arrive.',
  'auth.login.reset_sent':
    'If <b>{email}</b> belongs to an account, an email is on its way with a link to choose a new password (valid for 1 hour). Check your spam folder if it does not arrive.',
  'auth.login.another_address': 'Use another address',
  'auth.login.reset_title': 'Reset your password',
  'auth.login.reset_lead': 'We will email you a link to choose a new password.',

  // The second step of a sign-in (issue 45), after the password or the emailed link.
  'auth.second.title': 'Two-step sign-in',
  'auth.second.lead': 'Enter the 6-digit code your authenticator app shows for this account.',
  'auth.second.code': 'Code',
  'auth.second.code_hint': 'No phone at hand? Enter one of your recovery codes instead.',
  'auth.second.submit': 'Verify and sign in',
  'auth.second.start_over': 'Start again',

  // The one-time sign-in link from the email (/login/link).
  'auth.link.title': 'Signing you in',
  'auth.link.incomplete':
    'This sign-in link is incomplete. Open it again from the email, or ask for a new one.',
  'auth.link.checking': 'Checking your link…',

  // Choosing a new password from the emailed link (/reset-password).
  'auth.reset.title': 'Reset your password',
  'auth.reset.incomplete':
    'This reset link is incomplete. Open it again from the email, or <link>ask for a new one</link>.',
  'auth.reset.choose_title': 'Choose a new password',
  'auth.reset.lead': 'Your other sessions will be signed out.',
  'auth.reset.new_password': 'New password',
  'auth.reset.repeat': 'Repeat the new password',
  'auth.reset.differ': 'The two passwords differ',
  'auth.reset.submit': 'Save and sign in',

  // Joining an account from an invitation email (/invite); {role} is admin, member or viewer.
  'auth.invite.title': 'Invitation',
  'auth.invite.incomplete': 'This invitation link is incomplete. Open it again from the email.',
  'auth.invite.already_member': 'Already a member? <link>Sign in</link>',
  'auth.invite.join': 'Join {account}',
  'auth.invite.join_unnamed': 'Join the account',
  'auth.invite.lead':
    '{inviter} invited <b>{email}</b> as {role, select, admin {an admin} member {a member} viewer {a viewer} other {a {role}}}. Choose your name and a password to accept.',
  'auth.invite.submit': 'Accept and sign in',

  // Sign-up (/signup); {command} is the operator's command line.
  'auth.signup.title': 'Create an account',
  'auth.signup.closed':
    'This server does not take sign-ups. Ask its operator to create an account for you ({command}), or ask a colleague to invite you.',
  'auth.signup.have_account': 'Already have an account? <link>Sign in</link>',
  'auth.signup.company': 'Company or team name',
  'auth.signup.submit': 'Create account',

  // Account page (/account).
  'account.title': 'Account',
  'account.intro': 'Your profile, password and sessions.',
  'account.intro_admin': 'Your profile, password and sessions, and the account name.',
  // Admins: emails and SMS of this account not delivered yet (the SMTP server or SMS provider was
  // down), retried for a while, then given up until the operator sends them again.
  'account.delivery.title': 'Message delivery',
  'account.delivery.all_sent': 'Every email and SMS of this account has gone out.',
  'account.delivery.mail_waiting':
    '{count, plural, one {# email waiting to go out} other {# emails waiting to go out}} (retried automatically; the oldest written {ago}).',
  'account.delivery.sms_waiting':
    '{count, plural, one {# SMS waiting to go out} other {# SMS waiting to go out}} (retried automatically; the oldest written {ago}).',
  'account.delivery.mail_undeliverable':
    '{count, plural, one {# email could not be delivered} other {# emails could not be delivered}}: ask your operator to send again with esign mail retry.',
  'account.delivery.sms_undeliverable':
    '{count, plural, one {# SMS could not be delivered} other {# SMS could not be delivered}}: ask your operator to send again with esign sms retry.',
  // Profile.
  'account.profile.title': 'Your profile',
  'account.profile.signed_in_as': 'Signed in as {email}.',
  'account.profile.submit': 'Save profile',
  'account.profile.name': 'Name',
  'account.profile.country': 'Billing country',
  'account.profile.country_example': 'US',
  'account.profile.country_hint': 'Two-letter code; needed before buying credits.',
  'account.profile.saved': 'Profile saved',
  // The account's name (admins).
  'account.name.title': 'Account',
  'account.name.submit': 'Rename account',
  'account.name.label': 'Account name',
  'account.name.hint': 'Shown to people you invite.',
  'account.name.saved': 'Account renamed',
  // The language signers read by default (admins).
  'account.language.title': "Signers' language",
  'account.language.intro':
    "What signers read (signing page, emails, consent, audit trail) when neither the signer nor the request names a language. Without one, the signing page follows each signer's browser.",
  'account.language.submit': 'Save language',
  'account.language.label': 'Default language',
  'account.language.browser': "The signer's browser language",
  'account.language.saved': 'Signers’ language saved',
  // Password.
  'account.password.title_set': 'Set a password',
  'account.password.title_change': 'Change password',
  'account.password.submit': 'Save password',
  'account.password.current': 'Current password',
  'account.password.new': 'New password',
  'account.password.hint': 'At least 8 characters. Your other sessions will be signed out.',
  'account.password.changed':
    '{count, plural, =0 {Password changed} one {Password changed; # other session signed out} other {Password changed; # other sessions signed out}}',
  // Sessions: where the person is signed in; {browser} and {os} are names such as Firefox and Linux.
  'account.sessions.title': 'Where you are signed in',
  'account.sessions.sign_out_others': 'Sign out other sessions',
  'account.sessions.others_signed_out':
    '{count, plural, one {# other session signed out} other {# other sessions signed out}}',
  'account.sessions.agent': '{browser} on {os}',
  'account.sessions.unknown_browser': 'Unknown browser',
  'account.sessions.browser': 'Browser',
  'account.sessions.this_browser': 'this browser',
  'account.sessions.test_mode': 'test mode',
  'account.sessions.details': '{address} · signed in {signed_in} · last active {last_active}',
  // How the session was opened; {method} is the method's name when it has no words here.
  'account.sessions.method':
    '· {method, select, password {with a password} password_totp {with a password and an app code} password_recovery_code {with a password and a recovery code} link {with an emailed link} link_totp {with an emailed link and an app code} link_recovery_code {with an emailed link and a recovery code} password_passkey {with a password and a passkey} link_passkey {with an emailed link and a passkey} passkey {with a passkey} sso {with single sign-on} other {{method}}}',
  'account.sessions.unknown_address': 'unknown address',
  'account.sessions.sign_out': 'Sign out',
  'account.sessions.signed_out': 'Session signed out',

  // Team page (/team).
  'team.title': 'Team',
  'team.intro':
    'People who can sign in to {account}. Admins manage everything; members work with templates and requests; viewers can only look.',
  'team.intro_unnamed':
    'People who can sign in to this account. Admins manage everything; members work with templates and requests; viewers can only look.',
  // A member's role in a badge; {role} is admin, member or viewer.
  'team.role': '{role, select, admin {admin} member {member} viewer {viewer} other {{role}}}',
  // Inviting (admins).
  'team.invite.title': 'Invite someone',
  'team.invite.submit': 'Send invitation',
  'team.invite.email': 'Email',
  'team.invite.role': 'Role',
  'team.invite.role_admin': 'Admin: everything, including keys, webhooks and billing',
  'team.invite.role_member': 'Member: templates and requests',
  'team.invite.role_viewer': 'Viewer: read only',
  'team.invite.sent': 'Invitation emailed to {email}',
  // Members.
  'team.members.title': 'Members ({count})',
  'team.members.you': 'you',
  'team.members.details': '{email} · since {date}',
  'team.members.role_of': 'Role of {email}',
  'team.members.role_admin': 'Admin',
  'team.members.role_member': 'Member',
  'team.members.role_viewer': 'Viewer',
  'team.members.remove': 'Remove',
  'team.members.remove_label': 'Remove {email}',
  'team.members.remove_title': 'Remove {name}?',
  'team.members.remove_description':
    'They are signed out everywhere and their API keys stop working. What they created stays.',
  'team.members.remove_confirm': 'Remove member',
  'team.members.role_changed': 'Role changed',
  'team.members.removed': 'Member removed',
  // Invitations not answered yet.
  'team.invitations.title': 'Pending invitations',
  'team.invitations.none': 'No invitations waiting for an answer.',
  'team.invitations.details': 'Invited by {inviter} · expires {date}',
  'team.invitations.details_unknown': 'Invited by an admin · expires {date}',
  'team.invitations.withdraw': 'Withdraw',
  'team.invitations.withdrawn': 'Invitation withdrawn',
  // What members and viewers see on an admin page; {what} names its contents ("API keys").
  'team.admin_only.title': 'Only admins can see this page',
  'team.admin_only.body':
    '{what} are managed by the admins of your account. Ask one of them (see the Team page) if you need a change.',

  // API keys page (/api-keys).
  'keys.title': 'API keys',
  'keys.admin_only': 'API keys',
  'keys.intro':
    'Keys let your software use the REST API and MCP endpoint. A key acts as the person who created it.',
  // A new key; {prefix} is the start of the key (svc_live_…).
  'keys.new.title': 'New key',
  'keys.new.submit': 'Create key',
  'keys.new.name': 'Name',
  'keys.new.name_example': 'e.g. Zapier, CRM sync',
  'keys.new.expires': 'Expires on (optional)',
  'keys.new.data': 'Data',
  'keys.new.live': 'Live ({prefix}): real requests, uses credits',
  'keys.new.test': 'Test ({prefix}): test data only',
  'keys.new.permission': 'Permission',
  'keys.new.full': 'Full access',
  'keys.new.read': 'Read only (GET, verify, feedback)',
  // The new key, shown once.
  'keys.secret.title': 'Your new API key',
  'keys.secret.description': 'Copy it now and store it somewhere safe: it will not be shown again.',
  'keys.secret.copy': 'Copy key',
  'keys.secret.done': 'I have stored it',
  // Active keys; the quotes around '<key>' are ICU's: it shows as <key>.
  'keys.active.title': 'Active keys',
  'keys.active.none': 'No active keys',
  'keys.active.none_hint': "Create one above, then send it as Authorization: Bearer '<key>'.",
  'keys.col.name': 'Name',
  'keys.col.key': 'Key',
  'keys.col.access': 'Access',
  'keys.col.owner': 'Owner',
  'keys.col.last_used': 'Last used',
  'keys.col.expires': 'Expires',
  // {environment} is live or test.
  'keys.environment': '{environment, select, live {live} test {test} other {{environment}}}',
  'keys.permission.full': 'full access',
  'keys.permission.read': 'read only',
  'keys.never': 'never',
  'keys.revoke.label': 'Revoke key {name}',
  'keys.revoke.button': 'Revoke',
  'keys.revoke.title': 'Revoke “{name}”?',
  'keys.revoke.description': 'Software using this key stops working at once. This cannot be undone.',
  'keys.revoke.confirm': 'Revoke key',
  'keys.revoke.done': 'Key revoked: requests with it now get 401',
  // Revoked keys, folded away; {key} is the key's start.
  'keys.revoked.title': 'Revoked keys ({count})',
  'keys.revoked.item': '{name} {key} — revoked {date}',

  // Connected apps page (/connected-apps): AI assistants connected with OAuth.
  'apps.title': 'Connected apps',
  'apps.intro': 'Assistants you connected to the MCP server with “{full}” or “{view}”. They act as you.',
  'apps.none': 'No connected apps',
  'apps.none_hint':
    "Add this server's MCP address to an assistant (see {doc}): it sends you here to approve.",
  'apps.col.app': 'App',
  'apps.col.access': 'Access',
  'apps.col.returns_to': 'Returns to',
  'apps.col.connected': 'Connected',
  'apps.col.actions': 'Actions',
  'apps.access.full': 'Full access',
  'apps.access.view': 'View only',
  'apps.disconnect.button': 'Disconnect',
  'apps.disconnect.label': 'Disconnect {name}',
  'apps.disconnect.title': 'Disconnect “{name}”?',
  'apps.disconnect.description': 'Its tokens stop working at once; to use it again, connect it again.',
  'apps.disconnect.confirm': 'Disconnect',
  'apps.disconnect.done': 'App disconnected: its access ends now',

  // Account page: the authenticator app as the second step of signing in (issue 45).
  'account.totp.title': 'Two-step sign-in',
  'account.totp.off': 'Off: signing in needs only your password or an emailed link.',
  'account.totp.on':
    'On: every sign-in asks for a code from your authenticator app. {count, plural, =0 {No recovery codes left: make new ones.} one {# recovery code left.} other {# recovery codes left.}}',
  'account.totp.set_up': 'Set up an authenticator app',
  'account.totp.scan':
    'Scan this QR code with your authenticator app (such as Google Authenticator, Microsoft Authenticator, 1Password or Aegis), or type the key in it. Then enter the code it shows.',
  'account.totp.qr_alt': 'QR code to scan with an authenticator app',
  'account.totp.key': 'Key',
  'account.totp.copy_key': 'Copy key',
  'account.totp.first_code': 'Code from the app',
  'account.totp.turn_on': 'Turn on',
  'account.totp.cancel': 'Cancel',
  'account.totp.enabled': 'Two-step sign-in is on',
  'account.totp.codes_title': 'Your recovery codes',
  'account.totp.codes_intro':
    'Each code signs you in once when you do not have your app. Store them somewhere safe: they will not be shown again.',
  'account.totp.copy_codes': 'Copy codes',
  'account.totp.codes_done': 'I have stored them',
  'account.totp.fresh_code': 'Code from the app, or a recovery code',
  'account.totp.fresh_hint': 'Needed to turn it off or to make new recovery codes.',
  'account.totp.turn_off': 'Turn off',
  'account.totp.renew': 'New recovery codes',
  'account.totp.removed': 'Two-step sign-in is off',

  // The page a member sees when the account requires two-step sign-in and they have none yet.
  'auth.required.title': 'Set up two-step sign-in',
  'auth.required.lead':
    'An admin of your account requires a second step at every sign-in: a code from an authenticator app, or a passkey. Set one up to continue.',
  'auth.required.has_app':
    'You already have an authenticator app, but this session was opened without its code. Sign out, then sign in again with a code.',
  'auth.required.sign_out': 'Sign out',

  // Team page, admins: requiring two-step sign-in of every member (issue 45).
  'team.rule.title': 'Two-step sign-in',
  'team.rule.off': 'Members may sign in with a password or an emailed link alone.',
  'team.rule.on':
    'Required: every member signs in with a code from an authenticator app or a passkey (single sign-on counts too). Members without one set one up at their next sign-in; other routes stay closed to them until then.',
  'team.rule.require': 'Require two-step sign-in for every member',
  'team.rule.stop': 'Stop requiring it',
  'team.rule.required': 'Two-step sign-in is now required',
  'team.rule.optional': 'Two-step sign-in is no longer required',

  // A page that does not exist.
  'notfound.title': 'Page not found',
  'notfound.heading': 'There is nothing at this address',
  'notfound.body': 'The link may be out of date.',
  'notfound.home': 'Go to the overview',
} as const;
