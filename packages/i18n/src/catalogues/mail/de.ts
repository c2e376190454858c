import type { MailMessages } from './en.ts';

/** The emails to signers, and to the addresses the sender copied (cc). */
export const mailDe: MailMessages = {
  'mail.hello': 'Guten Tag,',
  'mail.hello_name': 'Guten Tag {name},',
  'mail.invite.lead': '{sender} bittet Sie, „{title}“ zu prüfen und zu unterschreiben.',
  'mail.handed_over':
    '{from} hat dies an Sie weitergegeben, damit Sie an seiner oder ihrer Stelle unterschreiben. Grund: {reason}',
  'mail.invite.subject': 'Bitte unterschreiben Sie „{title}“',
  'mail.next.lead': 'Sie sind an der Reihe, „{title}“ zu unterschreiben, gesendet von {sender}.',
  'mail.reminder.lead': 'Eine Erinnerung: {sender} wartet auf Ihre Unterschrift unter „{title}“.',
  'mail.reminder.subject': 'Erinnerung: Bitte unterschreiben Sie „{title}“',
  'mail.expires': 'Der Link ist gültig bis {date}.',
  'mail.button': 'Prüfen und unterschreiben',
  'mail.or_open': 'Oder öffnen Sie: {url}',
  'mail.private':
    'Dieser Link ist persönlich: Wer ihn besitzt, kann an Ihrer Stelle unterschreiben. Leiten Sie ihn nicht weiter.',
  'mail.code.subject': '{code} ist Ihr Code zum Unterschreiben',
  'mail.code.body': 'Ihr Code zum Öffnen von „{title}“ lautet {code}.',
  'mail.code.valid':
    'Er ist {minutes, plural, one {# Minute} other {# Minuten}} gültig. Wenn Sie ihn nicht angefordert haben, ignorieren Sie diese E-Mail.',
  'mail.code.footer': 'Geben Sie diesen Code niemals weiter.',
  'mail.done.subject': 'Abgeschlossen: {title}',
  'mail.done.subject_test': '[Test] Abgeschlossen: {title}',
  'mail.done.lead':
    'Alle haben „{title}“ unterschrieben. Ihre unterschriebene Fassung und das Prüfprotokoll stehen zum Herunterladen bereit:',
  'mail.done.until': 'Diese Links sind gültig bis {date}.',
  'mail.done.test': 'Dies wurde im Testmodus gesendet: Die Dokumente sind nicht rechtsverbindlich.',
  'mail.done.audit_trail': 'Prüfprotokoll',
  'mail.done.combined': 'Alles in einer Datei',
  'mail.copy.subject': 'Ihre unterschriebene Fassung: {title}',
  'mail.copy.subject_test': '[Test] Ihre unterschriebene Fassung: {title}',
  'mail.copy.lead':
    'Sie haben „{title}“ unterschrieben. Hier ist Ihre unterschriebene Fassung; sobald alle unterschrieben haben, erhalten Sie die endgültigen Dokumente und das Prüfprotokoll.',
  'mail.cc.subject': 'Kopie: „{title}“ wurde zur Unterschrift gesendet',
  'mail.cc.subject_test': '[Test] Kopie: „{title}“ wurde zur Unterschrift gesendet',
  'mail.cc.lead':
    '{sender} hat „{title}“ zur Unterschrift gesendet und Sie in Kopie gesetzt. Sie müssen nicht unterschreiben.',
  'mail.cc.lead_to':
    '{sender} hat „{title}“ an {signers} zur Unterschrift gesendet und Sie in Kopie gesetzt. Sie müssen nicht unterschreiben.',
  'mail.cc.body':
    'Über den Link unten sehen Sie die Dokumente und wer bisher unterschrieben hat. Sobald alle unterschrieben haben, erhalten Sie die unterschriebenen Dokumente und das Prüfprotokoll.',
  'mail.cc.button': 'Anfrage ansehen (nur lesen)',
  'mail.cc.footer':
    'Dieser Link zeigt die Anfrage nur zum Lesen; mit ihm kann nicht unterschrieben werden. Leiten Sie ihn nicht weiter.',
  'mail.cc.done_lead':
    'Alle haben „{title}“ unterschrieben, wozu Sie in Kopie gesetzt wurden. Die unterschriebenen Dokumente und das Prüfprotokoll:',
  'mail.cc.done_footer':
    'Sie erhalten diese E-Mail, weil der Absender Sie bei dieser Anfrage in Kopie gesetzt hat.',
  'mail.cc.a_signer': 'eine unterzeichnende Person',
};
