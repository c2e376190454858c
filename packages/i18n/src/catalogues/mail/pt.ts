import type { MailMessages } from './en.ts';

/** The emails to signers, and to the addresses the sender copied (cc). */
export const mailPt: MailMessages = {
  'mail.hello': 'Olá,',
  'mail.hello_name': 'Olá, {name},',
  'mail.invite.lead': '{sender} pede que você revise e assine “{title}”.',
  'mail.handed_over': '{from} passou isto para você assinar no lugar dele ou dela. Motivo: {reason}',
  'mail.invite.subject': 'Por favor, assine “{title}”',
  'mail.next.lead': 'É a sua vez de assinar “{title}”, enviado por {sender}.',
  'mail.reminder.lead': 'Lembrete: {sender} está aguardando sua assinatura em “{title}”.',
  'mail.reminder.subject': 'Lembrete: por favor, assine “{title}”',
  'mail.expires': 'O link expira em {date}.',
  'mail.button': 'Revisar e assinar',
  'mail.or_open': 'Ou abra: {url}',
  'mail.private': 'Este link é pessoal: quem o tiver pode assinar no seu lugar. Não o encaminhe.',
  'mail.code.subject': '{code} é o seu código de assinatura',
  'mail.code.body': 'Seu código para abrir “{title}” é {code}.',
  'mail.code.valid':
    'Ele é válido por {minutes, plural, one {# minuto} other {# minutos}}. Se você não o solicitou, ignore este e-mail.',
  'mail.code.footer': 'Nunca compartilhe este código.',
  'mail.done.subject': 'Concluído: {title}',
  'mail.done.subject_test': '[Teste] Concluído: {title}',
  'mail.done.lead':
    'Todos assinaram “{title}”. Sua cópia assinada e a trilha de auditoria estão prontas para download:',
  'mail.done.until': 'Estes links funcionam até {date}.',
  'mail.done.test': 'Enviado em modo de teste: os documentos não têm validade jurídica.',
  'mail.done.audit_trail': 'Trilha de auditoria',
  'mail.done.combined': 'Tudo em um só arquivo',
  'mail.copy.subject': 'Sua cópia assinada: {title}',
  'mail.copy.subject_test': '[Teste] Sua cópia assinada: {title}',
  'mail.copy.lead':
    'Você assinou “{title}”. Aqui está sua cópia assinada; quando todos tiverem assinado, você receberá os documentos finais e a trilha de auditoria.',
  'mail.cc.subject': 'Cópia: “{title}” foi enviado para assinatura',
  'mail.cc.subject_test': '[Teste] Cópia: “{title}” foi enviado para assinatura',
  'mail.cc.lead':
    '{sender} enviou “{title}” para assinatura e colocou você em cópia. Você não precisa assinar.',
  'mail.cc.lead_to':
    '{sender} enviou “{title}” para assinatura a {signers} e colocou você em cópia. Você não precisa assinar.',
  'mail.cc.body':
    'O link abaixo mostra os documentos e quem já assinou. Quando todos tiverem assinado, você receberá os documentos assinados e a trilha de auditoria.',
  'mail.cc.button': 'Ver a solicitação (somente leitura)',
  'mail.cc.footer':
    'Este link mostra a solicitação somente para leitura; não serve para assinar. Não o encaminhe.',
  'mail.cc.done_lead':
    'Todos assinaram “{title}”, em que você estava em cópia. Os documentos assinados e a trilha de auditoria:',
  'mail.cc.done_footer':
    'Você recebe este e-mail porque o remetente colocou você em cópia nesta solicitação.',
  'mail.cc.a_signer': 'um signatário',
};
