import type { MailMessages } from './en.ts';

/** The emails to signers, and to the addresses the sender copied (cc). */
export const mailIt: MailMessages = {
  'mail.hello': 'Gentile destinatario,',
  'mail.hello_name': 'Gentile {name},',
  'mail.invite.lead': '{sender} Le chiede di controllare e firmare «{title}».',
  'mail.handed_over': '{from} Le ha passato questo documento perché firmi al suo posto. Motivo: {reason}',
  'mail.invite.subject': 'Firmi «{title}»',
  'mail.next.lead': 'È il Suo turno di firmare «{title}», inviato da {sender}.',
  'mail.reminder.lead': 'Promemoria: {sender} attende la Sua firma su «{title}».',
  'mail.reminder.subject': 'Promemoria: firmi «{title}»',
  'mail.expires': 'Il link scade il {date}.',
  'mail.button': 'Controlla e firma',
  'mail.or_open': 'Oppure apra: {url}',
  'mail.private': 'Questo link è personale: chiunque lo possieda può firmare al Suo posto. Non lo inoltri.',
  'mail.code.subject': '{code} è il Suo codice di firma',
  'mail.code.body': 'Il Suo codice per aprire «{title}» è {code}.',
  'mail.code.valid':
    'È valido per {minutes, plural, one {# minuto} other {# minuti}}. Se non lo ha richiesto, ignori questa email.',
  'mail.code.footer': 'Non condivida mai questo codice.',
  'mail.done.subject': 'Completato: {title}',
  'mail.done.subject_test': '[Test] Completato: {title}',
  'mail.done.lead':
    'Tutti hanno firmato «{title}». La Sua copia firmata e il registro di controllo sono pronti per il download:',
  'mail.done.until': 'Questi link funzionano fino al {date}.',
  'mail.done.test': 'Inviato in modalità di prova: i documenti non sono legalmente vincolanti.',
  'mail.done.audit_trail': 'Registro di controllo',
  'mail.done.combined': 'Tutto in un unico file',
  'mail.copy.subject': 'La Sua copia firmata: {title}',
  'mail.copy.subject_test': '[Prova] La Sua copia firmata: {title}',
  'mail.copy.lead':
    'Ha firmato «{title}». Ecco la Sua copia firmata; quando tutti avranno firmato riceverà i documenti definitivi e il registro di controllo.',
  'mail.cc.subject': 'Copia: «{title}» è stato inviato per la firma',
  'mail.cc.subject_test': '[Prova] Copia: «{title}» è stato inviato per la firma',
  'mail.cc.lead':
    '{sender} ha inviato «{title}» per la firma e L’ha messa in copia. Non Le viene chiesto di firmare.',
  'mail.cc.lead_to':
    '{sender} ha inviato «{title}» per la firma a {signers} e L’ha messa in copia. Non Le viene chiesto di firmare.',
  'mail.cc.body':
    'Il link qui sotto mostra i documenti e chi ha già firmato. Quando tutti avranno firmato riceverà i documenti firmati e il registro di controllo.',
  'mail.cc.button': 'Vedi la richiesta (sola lettura)',
  'mail.cc.footer':
    'Questo link mostra la richiesta in sola lettura; non permette di firmare. Non inoltrarlo.',
  'mail.cc.done_lead':
    'Tutti hanno firmato «{title}», su cui era in copia. I documenti firmati e il registro di controllo:',
  'mail.cc.done_footer': 'Riceve questa email perché il mittente L’ha messa in copia su questa richiesta.',
  'mail.cc.a_signer': 'un firmatario',
};
