/**
 * The signing page's messages about form logic (issue 46: conditions, formulas, validation), in
 * the nine languages; each catalogue spreads its own. Kept apart so the catalogues stay short.
 */

const en = {
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

type FormMessages = Record<keyof typeof en, string>;

const de: FormMessages = {
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

const es: FormMessages = {
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

const fr: FormMessages = {
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

const it: FormMessages = {
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

const nl: FormMessages = {
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

const pl: FormMessages = {
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

const pt: FormMessages = {
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

const ar: FormMessages = {
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

export const formMessages = { en, de, es, fr, it, nl, pl, pt, ar };
