import type { FormMessages } from './en.ts';

/** The signing page's messages about form logic (issue 46). */
export const formEs: FormMessages = {
  'error.form_required': '«{field}»: este campo es obligatorio',
  'error.form_hidden': '«{field}»: este campo está oculto por otra respuesta y debe quedar vacío',
  'error.form_formula': '«{field}»: el valor no coincide con su cálculo; recargue la página',
  'error.form_pattern': '«{field}»: {message}',
  'error.form_pattern_default': '«{field}»: no tiene la forma esperada',
  'error.form_min_length': '«{field}»: al menos {min, number} caracteres',
  'error.form_max_length': '«{field}»: como máximo {max, number} caracteres',
  'error.form_min': '«{field}»: al menos {min, number}',
  'error.form_max': '«{field}»: como máximo {max, number}',
  'error.form_step': '«{field}»: en pasos de {step, number}',
  'error.form_earliest': '«{field}»: el {date} o después',
  'error.form_latest': '«{field}»: el {date} o antes',
  'error.form_email': '«{field}»: introduzca una dirección de correo electrónico',
  'error.form_phone': '«{field}»: introduzca un número de teléfono',
  'error.form_iban': '«{field}»: introduzca un IBAN válido, por ejemplo ES91 2100 0418 4502 0005 1332',
  'error.form_postcode': '«{field}»: introduzca un código postal',
};
