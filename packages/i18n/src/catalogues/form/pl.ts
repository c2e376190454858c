import type { FormMessages } from './en.ts';

/** The signing page's messages about form logic (issue 46). */
export const formPl: FormMessages = {
  'error.form_required': '„{field}”: to pole jest wymagane',
  'error.form_hidden': '„{field}”: to pole jest ukryte przez inną odpowiedź i musi pozostać puste',
  'error.form_formula': '„{field}”: wartość nie zgadza się z jej obliczeniem; odśwież stronę',
  'error.form_pattern': '„{field}”: {message}',
  'error.form_pattern_default': '„{field}”: to nie ma oczekiwanej postaci',
  'error.form_min_length': '„{field}”: co najmniej {min, number} znaków',
  'error.form_max_length': '„{field}”: najwyżej {max, number} znaków',
  'error.form_min': '„{field}”: co najmniej {min, number}',
  'error.form_max': '„{field}”: najwyżej {max, number}',
  'error.form_step': '„{field}”: w krokach co {step, number}',
  'error.form_earliest': '„{field}”: {date} lub później',
  'error.form_latest': '„{field}”: {date} lub wcześniej',
  'error.form_email': '„{field}”: wpisz adres e-mail',
  'error.form_phone': '„{field}”: wpisz numer telefonu',
  'error.form_iban': '„{field}”: wpisz poprawny IBAN, na przykład PL61 1090 1014 0000 0712 1981 2874',
  'error.form_postcode': '„{field}”: wpisz kod pocztowy',
};
