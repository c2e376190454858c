import type { FormMessages } from './en.ts';

/** The signing page's messages about form logic (issue 46). */
export const formFr: FormMessages = {
  'error.form_required': '« {field} » : ce champ est obligatoire',
  'error.form_hidden': '« {field} » : ce champ est masqué par une autre réponse et doit rester vide',
  'error.form_formula': '« {field} » : la valeur ne correspond pas à son calcul ; rechargez la page',
  'error.form_pattern': '« {field} » : {message}',
  'error.form_pattern_default': '« {field} » : ce n’est pas sous la forme attendue',
  'error.form_min_length': '« {field} » : au moins {min, number} caractères',
  'error.form_max_length': '« {field} » : au plus {max, number} caractères',
  'error.form_min': '« {field} » : au moins {min, number}',
  'error.form_max': '« {field} » : au plus {max, number}',
  'error.form_step': '« {field} » : par pas de {step, number}',
  'error.form_earliest': '« {field} » : le {date} ou après',
  'error.form_latest': '« {field} » : le {date} ou avant',
  'error.form_email': '« {field} » : saisissez une adresse e-mail',
  'error.form_phone': '« {field} » : saisissez un numéro de téléphone',
  'error.form_iban': '« {field} » : saisissez un IBAN valide, par exemple FR76 3000 6000 0112 3456 7890 189',
  'error.form_postcode': '« {field} » : saisissez un code postal',
};
