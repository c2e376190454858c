import type { MailMessages } from './en.ts';

/** The emails to signers, and to the addresses the sender copied (cc). */
export const mailPl: MailMessages = {
  'mail.hello': 'Dzień dobry,',
  'mail.hello_name': 'Dzień dobry, {name},',
  'mail.invite.lead': '{sender} prosi o sprawdzenie i podpisanie dokumentu „{title}”.',
  'mail.handed_over':
    '{from} przekazuje Panu/Pani ten dokument do podpisania w swoim imieniu. Powód: {reason}',
  'mail.invite.subject': 'Prośba o podpisanie „{title}”',
  'mail.next.lead': 'Twoja kolej na podpisanie dokumentu „{title}” wysłanego przez: {sender}.',
  'mail.reminder.lead': 'Przypomnienie: {sender} czeka na Twój podpis pod dokumentem „{title}”.',
  'mail.reminder.subject': 'Przypomnienie: prośba o podpisanie „{title}”',
  'mail.expires': 'Link wygasa {date}.',
  'mail.button': 'Sprawdź i podpisz',
  'mail.or_open': 'Lub otwórz: {url}',
  'mail.private':
    'Ten link jest prywatny: każdy, kto go ma, może podpisać w Twoim imieniu. Nie przekazuj go dalej.',
  'mail.code.subject': '{code} to Twój kod do podpisu',
  'mail.code.body': 'Twój kod do otwarcia dokumentu „{title}” to {code}.',
  'mail.code.valid':
    'Jest ważny przez {minutes, plural, one {# minutę} few {# minuty} many {# minut} other {# minuty}}. Jeśli o niego nie prosiłeś(-aś), zignoruj tę wiadomość.',
  'mail.code.footer': 'Nigdy nie udostępniaj tego kodu.',
  'mail.done.subject': 'Zakończono: {title}',
  'mail.done.subject_test': '[Test] Zakończono: {title}',
  'mail.done.lead':
    'Wszyscy podpisali dokument „{title}”. Twoja podpisana kopia i ścieżka audytu są gotowe do pobrania:',
  'mail.done.until': 'Te linki działają do {date}.',
  'mail.done.test': 'Wysłano w trybie testowym: dokumenty nie są prawnie wiążące.',
  'mail.done.audit_trail': 'Ścieżka audytu',
  'mail.done.combined': 'Wszystko w jednym pliku',
  'mail.copy.subject': 'Twoja podpisana kopia: {title}',
  'mail.copy.subject_test': '[Test] Twoja podpisana kopia: {title}',
  'mail.copy.lead':
    'Podpisano dokument „{title}”. Oto Twoja podpisana kopia; gdy wszyscy podpiszą, otrzymasz ostateczne dokumenty i ścieżkę audytu.',
  'mail.cc.subject': 'Kopia: „{title}” wysłano do podpisu',
  'mail.cc.subject_test': '[Test] Kopia: „{title}” wysłano do podpisu',
  'mail.cc.lead': '{sender} wysłał(a) „{title}” do podpisu i dodał(a) Cię do kopii. Nie musisz podpisywać.',
  'mail.cc.lead_to':
    '{sender} wysłał(a) „{title}” do podpisu ({signers}) i dodał(a) Cię do kopii. Nie musisz podpisywać.',
  'mail.cc.body':
    'Poniższy link pokazuje dokumenty i to, kto już podpisał. Gdy wszyscy podpiszą, otrzymasz podpisane dokumenty i ścieżkę audytu.',
  'mail.cc.button': 'Zobacz prośbę (tylko do odczytu)',
  'mail.cc.footer':
    'Ten link pokazuje prośbę tylko do odczytu; nie można nim podpisać. Nie przekazuj go dalej.',
  'mail.cc.done_lead':
    'Wszyscy podpisali „{title}”, którego kopię otrzymujesz. Podpisane dokumenty i ścieżka audytu:',
  'mail.cc.done_footer': 'Otrzymujesz tę wiadomość, ponieważ nadawca dodał Cię do kopii tej prośby.',
  'mail.cc.a_signer': 'osoba podpisująca',
};
