import type { FormMessages } from './en.ts';

/** The signing page's messages about form logic (issue 46). */
export const formPt: FormMessages = {
  'error.form_required': '“{field}”: este campo é obrigatório',
  'error.form_hidden': '“{field}”: este campo está oculto por outra resposta e deve ficar vazio',
  'error.form_formula': '“{field}”: o valor não corresponde ao seu cálculo; recarregue a página',
  'error.form_pattern': '“{field}”: {message}',
  'error.form_pattern_default': '“{field}”: não está na forma esperada',
  'error.form_min_length': '“{field}”: pelo menos {min, number} caracteres',
  'error.form_max_length': '“{field}”: no máximo {max, number} caracteres',
  'error.form_min': '“{field}”: pelo menos {min, number}',
  'error.form_max': '“{field}”: no máximo {max, number}',
  'error.form_step': '“{field}”: em passos de {step, number}',
  'error.form_earliest': '“{field}”: em {date} ou depois',
  'error.form_latest': '“{field}”: em {date} ou antes',
  'error.form_email': '“{field}”: introduza um endereço de e-mail',
  'error.form_phone': '“{field}”: introduza um número de telefone',
  'error.form_iban': '“{field}”: introduza um IBAN válido, por exemplo PT50 0002 0123 1234 5678 9015 4',
  'error.form_postcode': '“{field}”: introduza um código postal',
};
