import type { Migration } from 'kysely/migration';
import * as m0001 from './2026_11_22_0001_initial.ts';
import * as m0002 from './2026_11_22_0002_webhooks.ts';
import * as m0003 from './2026_11_22_0003_sealing.ts';
import * as signingSecurity from './2026_11_23_0001_signing_security.ts';
import * as billing from './2026_11_23_0002_billing.ts';
import * as dashboard from './2026_11_23_0003_dashboard.ts';
import * as oauth from './2026_11_24_0010_oauth.ts';
import * as templateVersion from './2026_11_24_0030_template_version.ts';
import * as uploadedSha256 from './2026_11_24_0040_uploaded_sha256.ts';
import * as listFilterIndexes from './2026_11_24_0050_list_filter_indexes.ts';
import * as sendSources from './2026_11_24_0060_send_sources.ts';
import * as trigramPendingLists from './2026_11_24_0140_trigram_pending_lists.ts';
import * as signerCopyFiles from './2026_11_27_0501_signer_copy_files.ts';
import * as pageRenderFailures from './2026_11_27_0601_page_render_failures.ts';
import * as sms from './2026_11_28_0101_sms.ts';
import * as locales from './2026_11_28_0201_locales.ts';
import * as ccNotify from './2026_11_28_0301_cc_notify.ts';
import * as autoRemindersDelegation from './2026_11_28_0401_auto_reminders_delegation.ts';
import * as idempotencyOutcome from './2026_12_07_0101_idempotency_outcome.ts';
import * as outboxRetry from './2026_12_07_0102_outbox_retry.ts';
import * as smsOptOuts from './2026_12_07_0301_sms_opt_outs.ts';
import * as auditActingSigner from './2026_12_07_0401_audit_acting_signer.ts';
import * as twoStepSignIn from './2026_12_07_0501_two_step_sign_in.ts';
import * as brands from './2026_12_07_0601_brands.ts';
import * as fieldLogic from './2026_12_07_1001_field_logic.ts';
import * as participantKinds from './2026_12_07_1101_participant_kinds.ts';
import * as templateRoleKinds from './2026_12_07_1102_template_role_kinds.ts';
import * as passkeysSso from './2026_12_07_1201_passkeys_sso.ts';

// Listed explicitly, in order. Migrations are frozen once released.
export const migrations: Record<string, Migration> = {
  '2026_11_22_0001_initial': m0001,
  '2026_11_22_0002_webhooks': m0002,
  '2026_11_22_0003_sealing': m0003,
  '2026_11_23_0001_signing_security': signingSecurity,
  '2026_11_23_0002_billing': billing,
  '2026_11_23_0003_dashboard': dashboard,
  '2026_11_24_0010_oauth': oauth,
  '2026_11_24_0030_template_version': templateVersion,
  '2026_11_24_0040_uploaded_sha256': uploadedSha256,
  '2026_11_24_0050_list_filter_indexes': listFilterIndexes,
  '2026_11_24_0060_send_sources': sendSources,
  '2026_11_24_0140_trigram_pending_lists': trigramPendingLists,
  '2026_11_27_0501_signer_copy_files': signerCopyFiles,
  '2026_11_27_0601_page_render_failures': pageRenderFailures,
  '2026_11_28_0101_sms': sms,
  '2026_11_28_0301_cc_notify': ccNotify,
  '2026_11_28_0401_auto_reminders_delegation': autoRemindersDelegation,
  '2026_11_28_0201_locales': locales,
  '2026_12_07_0101_idempotency_outcome': idempotencyOutcome,
  '2026_12_07_0102_outbox_retry': outboxRetry,
  '2026_12_07_0301_sms_opt_outs': smsOptOuts,
  '2026_12_07_0401_audit_acting_signer': auditActingSigner,
  '2026_12_07_0501_two_step_sign_in': twoStepSignIn,
  '2026_12_07_0601_brands': brands,
  '2026_12_07_1001_field_logic': fieldLogic,
  '2026_12_07_1101_participant_kinds': participantKinds,
  '2026_12_07_1102_template_role_kinds': templateRoleKinds,
  '2026_12_07_1201_passkeys_sso': passkeysSso,
};
