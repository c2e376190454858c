import type { FormMessages } from './en.ts';

/** The signing page's messages about form logic (issue 46). */
export const formIt: FormMessages = {
  'error.form_required': '«{field}»: questo campo è obbligatorio',
  'error.form_hidden': '«{field}»: questo campo è nascosto da un’altra risposta e deve restare vuoto',
  'error.form_formula': '«{field}»: il valore non corrisponde al suo calcolo; ricarichi la pagina',
  'error.form_pattern': '«{field}»: {message}',
  'error.form_pattern_default': '«{field}»: non è nella forma prevista',
  'error.form_min_length': '«{field}»: almeno {min, number} caratteri',
  'error.form_max_length': '«{field}»: al massimo {max, number} caratteri',
  'error.form_min': '«{field}»: almeno {min, number}',
  'error.form_max': '«{field}»: al massimo {max, number}',
  'error.form_step': '«{field}»: a passi di {step, number}',
  'error.form_earliest': '«{field}»: il {date} o dopo',
  'error.form_latest': '«{field}»: il {date} o prima',
  'error.form_email': '«{field}»: inserisca un indirizzo email',
  'error.form_phone': '«{field}»: inserisca un numero di telefono',
  'error.form_iban': '«{field}»: inserisca un IBAN valido, per esempio IT60 X054 2811 1010 0000 0123 456',
  'error.form_postcode': '«{field}»: inserisca un codice postale',
};
