import { MAX_CC, MAX_NOTIFY } from '@esign/core/schemas/recipients';
import { z } from 'zod';
import { msg, t } from '../messages/index.ts';

// Issue 34: the CC and notify addresses as the dashboard's forms take them (one text field each,
// addresses separated by commas, spaces or new lines), checked with the procedure's own rules.

/** The addresses typed in a field, in order, empty entries dropped. */
export function addressList(text: string | undefined): string[] {
  return (text ?? '').split(/[\s,;]+/).filter(Boolean);
}

const addressField = (max: number) =>
  z
    .string()
    .optional()
    .refine((v) => addressList(v).length <= max, t('copies.too_many', { max }))
    .refine((v) => addressList(v).every((a) => z.email().safeParse(a).success), msg('copies.invalid'));

export const CopiesFormFields = {
  cc: addressField(MAX_CC),
  notify: addressField(MAX_NOTIFY),
};

export const CopiesFormSchema = z.object(CopiesFormFields);
export type CopiesValues = z.input<typeof CopiesFormSchema>;

/** `cc` and `notify` for POST /signature_requests (left out when empty). */
export function copiesPayload(v: { cc?: string | undefined; notify?: string | undefined }) {
  const cc = addressList(v.cc);
  const notify = addressList(v.notify);
  return { ...(cc.length ? { cc } : {}), ...(notify.length ? { notify } : {}) };
}
