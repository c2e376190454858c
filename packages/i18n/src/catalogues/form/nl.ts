import type { FormMessages } from './en.ts';

/** The signing page's messages about form logic (issue 46). */
export const formNl: FormMessages = {
  'error.form_required': '‘{field}’: dit veld is verplicht',
  'error.form_hidden': '‘{field}’: dit veld is verborgen door een ander antwoord en moet leeg blijven',
  'error.form_formula': '‘{field}’: de waarde klopt niet met de berekening; laad de pagina opnieuw',
  'error.form_pattern': '‘{field}’: {message}',
  'error.form_pattern_default': '‘{field}’: dit heeft niet de verwachte vorm',
  'error.form_min_length': '‘{field}’: minstens {min, number} tekens',
  'error.form_max_length': '‘{field}’: hoogstens {max, number} tekens',
  'error.form_min': '‘{field}’: minstens {min, number}',
  'error.form_max': '‘{field}’: hoogstens {max, number}',
  'error.form_step': '‘{field}’: in stappen van {step, number}',
  'error.form_earliest': '‘{field}’: op of na {date}',
  'error.form_latest': '‘{field}’: op of voor {date}',
  'error.form_email': '‘{field}’: vul een e-mailadres in',
  'error.form_phone': '‘{field}’: vul een telefoonnummer in',
  'error.form_iban': '‘{field}’: vul een geldig IBAN in, bijvoorbeeld NL91 ABNA 0417 1643 00',
  'error.form_postcode': '‘{field}’: vul een postcode in',
};
