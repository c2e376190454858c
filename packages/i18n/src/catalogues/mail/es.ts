import type { MailMessages } from './en.ts';

/** The emails to signers, and to the addresses the sender copied (cc). */
export const mailEs: MailMessages = {
  'mail.hello': 'Hola:',
  'mail.hello_name': 'Hola, {name}:',
  'mail.invite.lead': '{sender} le pide que revise y firme «{title}».',
  'mail.handed_over': '{from} le ha pasado esto para que firme en su lugar. Motivo: {reason}',
  'mail.invite.subject': 'Firme «{title}», por favor',
  'mail.next.lead': 'Es su turno de firmar «{title}», enviado por {sender}.',
  'mail.reminder.lead': 'Recordatorio: {sender} espera su firma en «{title}».',
  'mail.reminder.subject': 'Recordatorio: firme «{title}», por favor',
  'mail.expires': 'El enlace caduca el {date}.',
  'mail.button': 'Revisar y firmar',
  'mail.or_open': 'O abra: {url}',
  'mail.private': 'Este enlace es personal: cualquiera que lo tenga puede firmar en su lugar. No lo reenvíe.',
  'mail.code.subject': '{code} es su código de firma',
  'mail.code.body': 'Su código para abrir «{title}» es {code}.',
  'mail.code.valid':
    'Es válido durante {minutes, plural, one {# minuto} other {# minutos}}. Si no lo ha solicitado, ignore este correo.',
  'mail.code.footer': 'No comparta nunca este código.',
  'mail.done.subject': 'Completado: {title}',
  'mail.done.subject_test': '[Prueba] Completado: {title}',
  'mail.done.lead':
    'Todos han firmado «{title}». Su copia firmada y el registro de auditoría están listos para descargar:',
  'mail.done.until': 'Estos enlaces funcionan hasta el {date}.',
  'mail.done.test': 'Se envió en modo de prueba: los documentos no son jurídicamente vinculantes.',
  'mail.done.audit_trail': 'Registro de auditoría',
  'mail.done.combined': 'Todo en un solo archivo',
  'mail.copy.subject': 'Su copia firmada: {title}',
  'mail.copy.subject_test': '[Prueba] Su copia firmada: {title}',
  'mail.copy.lead':
    'Ha firmado «{title}». Aquí tiene su copia firmada; cuando todos hayan firmado recibirá los documentos definitivos y el registro de auditoría.',
  'mail.cc.subject': 'Copia: «{title}» se ha enviado para firmar',
  'mail.cc.subject_test': '[Prueba] Copia: «{title}» se ha enviado para firmar',
  'mail.cc.lead':
    '{sender} ha enviado «{title}» para firmar y le ha puesto en copia. No se le pide que firme.',
  'mail.cc.lead_to':
    '{sender} ha enviado «{title}» para que lo firme {signers} y le ha puesto en copia. No se le pide que firme.',
  'mail.cc.body':
    'El enlace de abajo muestra los documentos y quién ha firmado hasta ahora. Cuando todos hayan firmado recibirá los documentos firmados y el registro de auditoría.',
  'mail.cc.button': 'Ver la solicitud (solo lectura)',
  'mail.cc.footer':
    'Este enlace muestra la solicitud en modo de solo lectura; no sirve para firmar. No lo reenvíe.',
  'mail.cc.done_lead':
    'Todos han firmado «{title}», en el que usted estaba en copia. Los documentos firmados y el registro de auditoría:',
  'mail.cc.done_footer': 'Recibe este correo porque el remitente le puso en copia de esta solicitud.',
  'mail.cc.a_signer': 'un firmante',
};
