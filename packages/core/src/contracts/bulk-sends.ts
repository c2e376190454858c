import { z } from 'zod';
import { DateTime, IdField, IdOutput, IdParam } from './ids.ts';
import { CcInput, NotifyInput } from './recipients.ts';
import { ReminderInputFields } from './reminders.ts';

const column = z.string().min(1).max(200);

const BulkMappingSchema = z.object({
  signers: z
    .array(
      z.object({
        role: z.string().trim().min(1).max(100),
        name: column.optional(),
        email: column.optional(),
        phone: column.optional(),
        kind: column
          .optional()
          .describe(
            "issue 47: the column holding this role's part per row (signer, approver, viewer; empty: signer)",
          ),
        prefill: z.record(z.string(), column).optional().describe('field name → column'),
      }),
    )
    .max(10),
});

export const BulkUploadInput = z.object({
  template_id: IdField,
  file: z
    .string()
    .min(1)
    .describe('the CSV or XLSX file, base64 (a data: prefix is allowed); at most 5 MB, 5,000 rows'),
  file_name: z.string().trim().min(1).max(255),
  mapping: BulkMappingSchema.optional().describe(
    'columns for each role; default: guessed from the column names',
  ),
  signing_order: z.enum(['sequential', 'parallel']).default('sequential'),
  send_email: z.boolean().default(true),
  message: z
    .object({ subject: z.string().max(300).optional(), body: z.string().max(10_000).optional() })
    .optional(),
  expires_at: DateTime.optional().describe('ISO 8601 date-time in the future, for every request'),
  cc: CcInput.optional(),
  notify: NotifyInput.optional(),
  // Issue 34.2, 34.3: for every request of the batch (contracts/reminders.ts).
  ...ReminderInputFields,
  key: z
    .string()
    .min(1)
    .max(255)
    .optional()
    .describe(
      'names the batch: an upload with a key already used returns that batch and sends nothing again',
    ),
});

const RowView = z.object({
  row_number: z.number().int(),
  values: z.record(z.string(), z.unknown()),
  signers: z.array(z.record(z.string(), z.unknown())),
  errors: z.array(z.string()),
});

export const BulkPreviewOutput = z.object({
  object: z.literal('bulk_send_preview'),
  template: z.object({ id: IdOutput, name: z.string(), roles: z.array(z.string()) }),
  columns: z.array(z.string()),
  mapping: BulkMappingSchema,
  total_rows: z.number().int(),
  invalid_rows: z.number().int(),
  rows: z.array(RowView),
  invalid: z.array(RowView),
  can_send: z.boolean(),
});

export const BulkSendOutput = z.object({
  object: z.literal('bulk_send'),
  id: IdOutput,
  status: z.enum(['queued', 'running', 'completed', 'stopped']),
  stop_reason: z.string().nullable(),
  template: z.object({ id: IdOutput, name: z.string() }),
  file_name: z.string(),
  total_rows: z.number().int(),
  counts: z.object({
    pending: z.number().int(),
    sent: z.number().int(),
    invalid: z.number().int(),
    failed: z.number().int(),
  }),
  created_at: DateTime,
  finished_at: DateTime.nullable(),
});

export const BulkSendIdInput = z.object({ id: IdParam });

export const BulkSendRowsOutput = z.object({
  object: z.literal('list'),
  data: z.array(
    z.object({
      object: z.literal('bulk_send_row'),
      row_number: z.number().int(),
      status: z.enum(['pending', 'sent', 'invalid', 'failed']),
      signers: z.array(z.unknown()),
      error_code: z.string().nullable(),
      error_message: z.string().nullable(),
      signature_request_id: IdOutput.nullable(),
    }),
  ),
  has_more: z.boolean(),
  next_cursor: z.null(),
});
