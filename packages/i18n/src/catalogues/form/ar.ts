import type { FormMessages } from './en.ts';

/** The signing page's messages about form logic (issue 46). */
export const formAr: FormMessages = {
  'error.form_required': '«{field}»: هذا الحقل مطلوب',
  'error.form_hidden': '«{field}»: هذا الحقل مخفي بسبب إجابة أخرى ويجب أن يبقى فارغًا',
  'error.form_formula': '«{field}»: القيمة لا تطابق حسابها؛ أعد تحميل الصفحة',
  'error.form_pattern': '«{field}»: {message}',
  'error.form_pattern_default': '«{field}»: هذا ليس بالشكل المتوقع',
  'error.form_min_length': '«{field}»: {min, number} أحرف على الأقل',
  'error.form_max_length': '«{field}»: {max, number} أحرف على الأكثر',
  'error.form_min': '«{field}»: {min, number} على الأقل',
  'error.form_max': '«{field}»: {max, number} على الأكثر',
  'error.form_step': '«{field}»: بخطوات مقدارها {step, number}',
  'error.form_earliest': '«{field}»: في {date} أو بعده',
  'error.form_latest': '«{field}»: في {date} أو قبله',
  'error.form_email': '«{field}»: اكتب عنوان بريد إلكتروني',
  'error.form_phone': '«{field}»: اكتب رقم هاتف',
  'error.form_iban': '«{field}»: اكتب رقم IBAN صالحًا، مثل SA03 8000 0000 6080 1016 7519',
  'error.form_postcode': '«{field}»: اكتب رمزًا بريديًا',
};
