/** The signing page's messages about form logic (issue 46), English: the source of the other languages'. */
export const formEn = {
  'error.form_required': '"{field}": this field is required',
  'error.form_hidden': '"{field}": this field is hidden by another answer and must stay empty',
  'error.form_formula': '"{field}": the value does not match its calculation; reload the page',
  'error.form_pattern': '"{field}": {message}',
  'error.form_pattern_default': '"{field}": this is not in the expected form',
  'error.form_min_length': '"{field}": at least {min, number} characters',
  'error.form_max_length': '"{field}": at most {max, number} characters',
  'error.form_min': '"{field}": at least {min, number}',
  'error.form_max': '"{field}": at most {max, number}',
  'error.form_step': '"{field}": in steps of {step, number}',
  'error.form_earliest': '"{field}": on or after {date}',
  'error.form_latest': '"{field}": on or before {date}',
  'error.form_email': '"{field}": enter an email address',
  'error.form_phone': '"{field}": enter a phone number',
  'error.form_iban': '"{field}": enter a valid IBAN, for example DE89 3704 0044 0532 0130 00',
  'error.form_postcode': '"{field}": enter a postcode',
} as const;

/** The form messages' keys, which every language's file has. */
export type FormMessages = Record<keyof typeof formEn, string>;
