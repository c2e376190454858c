import type { MailMessages } from './en.ts';

/** The emails to signers, and to the addresses the sender copied (cc). */
export const mailNl: MailMessages = {
  'mail.hello': 'Beste,',
  'mail.hello_name': 'Beste {name},',
  'mail.invite.lead': '{sender} vraagt u ‘{title}’ te bekijken en te ondertekenen.',
  'mail.handed_over':
    '{from} heeft dit aan u doorgegeven om in zijn of haar plaats te ondertekenen. Reden: {reason}',
  'mail.invite.subject': 'Onderteken ‘{title}’',
  'mail.next.lead': 'U bent aan de beurt om ‘{title}’ te ondertekenen, verstuurd door {sender}.',
  'mail.reminder.lead': 'Een herinnering: {sender} wacht op uw handtekening onder ‘{title}’.',
  'mail.reminder.subject': 'Herinnering: onderteken ‘{title}’',
  'mail.expires': 'De link verloopt op {date}.',
  'mail.button': 'Bekijken en ondertekenen',
  'mail.or_open': 'Of open: {url}',
  'mail.private':
    'Deze link is persoonlijk: iedereen die hem heeft, kan namens u ondertekenen. Stuur hem niet door.',
  'mail.code.subject': '{code} is uw ondertekencode',
  'mail.code.body': 'Uw code om ‘{title}’ te openen is {code}.',
  'mail.code.valid':
    'Hij is {minutes, plural, one {# minuut} other {# minuten}} geldig. Hebt u er niet om gevraagd, negeer deze e-mail dan.',
  'mail.code.footer': 'Deel deze code nooit.',
  'mail.done.subject': 'Voltooid: {title}',
  'mail.done.subject_test': '[Test] Voltooid: {title}',
  'mail.done.lead':
    'Iedereen heeft ‘{title}’ ondertekend. Uw ondertekende exemplaar en het audittrail staan klaar om te downloaden:',
  'mail.done.until': 'Deze links werken tot {date}.',
  'mail.done.test': 'Dit is in testmodus verstuurd: de documenten zijn niet juridisch bindend.',
  'mail.done.audit_trail': 'Audittrail',
  'mail.done.combined': 'Alles in één bestand',
  'mail.copy.subject': 'Uw ondertekende exemplaar: {title}',
  'mail.copy.subject_test': '[Test] Uw ondertekende exemplaar: {title}',
  'mail.copy.lead':
    'U hebt ‘{title}’ ondertekend. Hier is uw ondertekende exemplaar; zodra iedereen heeft ondertekend, ontvangt u de definitieve documenten en het audittrail.',
  'mail.cc.subject': 'Kopie: ‘{title}’ is ter ondertekening verstuurd',
  'mail.cc.subject_test': '[Test] Kopie: ‘{title}’ is ter ondertekening verstuurd',
  'mail.cc.lead':
    '{sender} heeft ‘{title}’ ter ondertekening verstuurd en u in kopie gezet. U hoeft niet te ondertekenen.',
  'mail.cc.lead_to':
    '{sender} heeft ‘{title}’ ter ondertekening naar {signers} verstuurd en u in kopie gezet. U hoeft niet te ondertekenen.',
  'mail.cc.body':
    'Via de link hieronder ziet u de documenten en wie al heeft ondertekend. Zodra iedereen heeft ondertekend, ontvangt u de ondertekende documenten en het audittrail.',
  'mail.cc.button': 'Verzoek bekijken (alleen lezen)',
  'mail.cc.footer':
    'Deze link toont het verzoek alleen ter inzage; er kan niet mee worden ondertekend. Stuur hem niet door.',
  'mail.cc.done_lead':
    'Iedereen heeft ‘{title}’ ondertekend, waarop u in kopie stond. De ondertekende documenten en het audittrail:',
  'mail.cc.done_footer': 'U ontvangt deze e-mail omdat de afzender u bij dit verzoek in kopie heeft gezet.',
  'mail.cc.a_signer': 'een ondertekenaar',
};
