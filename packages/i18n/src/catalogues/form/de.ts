import type { FormMessages } from './en.ts';

/** The signing page's messages about form logic (issue 46). */
export const formDe: FormMessages = {
  'error.form_required': '„{field}“: dieses Feld ist erforderlich',
  'error.form_hidden':
    '„{field}“: dieses Feld ist durch eine andere Antwort ausgeblendet und muss leer bleiben',
  'error.form_formula':
    '„{field}“: der Wert stimmt nicht mit seiner Berechnung überein; laden Sie die Seite neu',
  'error.form_pattern': '„{field}“: {message}',
  'error.form_pattern_default': '„{field}“: das hat nicht die erwartete Form',
  'error.form_min_length': '„{field}“: mindestens {min, number} Zeichen',
  'error.form_max_length': '„{field}“: höchstens {max, number} Zeichen',
  'error.form_min': '„{field}“: mindestens {min, number}',
  'error.form_max': '„{field}“: höchstens {max, number}',
  'error.form_step': '„{field}“: in Schritten von {step, number}',
  'error.form_earliest': '„{field}“: am oder nach dem {date}',
  'error.form_latest': '„{field}“: am oder vor dem {date}',
  'error.form_email': '„{field}“: Geben Sie eine E-Mail-Adresse ein',
  'error.form_phone': '„{field}“: Geben Sie eine Telefonnummer ein',
  'error.form_iban': '„{field}“: Geben Sie eine gültige IBAN ein, zum Beispiel DE89 3704 0044 0532 0130 00',
  'error.form_postcode': '„{field}“: Geben Sie eine Postleitzahl ein',
};
