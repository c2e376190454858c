import type { MailMessages } from './en.ts';

/** The emails to signers, and to the addresses the sender copied (cc). */
export const mailFr: MailMessages = {
  'mail.hello': 'Bonjour,',
  'mail.hello_name': 'Bonjour {name},',
  'mail.invite.lead': '{sender} vous invite à vérifier et signer « {title} ».',
  'mail.handed_over': '{from} vous a transmis ce document pour que vous signiez à sa place. Motif : {reason}',
  'mail.invite.subject': 'Veuillez signer « {title} »',
  'mail.next.lead': 'C’est à votre tour de signer « {title} », envoyé par {sender}.',
  'mail.reminder.lead': 'Rappel : {sender} attend votre signature sur « {title} ».',
  'mail.reminder.subject': 'Rappel : veuillez signer « {title} »',
  'mail.expires': 'Le lien expire le {date}.',
  'mail.button': 'Vérifier et signer',
  'mail.or_open': 'Ou ouvrez : {url}',
  'mail.private':
    'Ce lien est personnel : toute personne qui le détient peut signer à votre place. Ne le transférez pas.',
  'mail.code.subject': '{code} est votre code de signature',
  'mail.code.body': 'Votre code pour ouvrir « {title} » est {code}.',
  'mail.code.valid':
    'Il est valable {minutes, plural, one {# minute} other {# minutes}}. Si vous ne l’avez pas demandé, ignorez cet e-mail.',
  'mail.code.footer': 'Ne communiquez jamais ce code.',
  'mail.done.subject': 'Terminé : {title}',
  'mail.done.subject_test': '[Test] Terminé : {title}',
  'mail.done.lead':
    'Tout le monde a signé « {title} ». Votre exemplaire signé et le journal d’audit sont prêts à être téléchargés :',
  'mail.done.until': 'Ces liens fonctionnent jusqu’au {date}.',
  'mail.done.test': 'Envoyé en mode test : les documents n’ont pas de valeur juridique.',
  'mail.done.audit_trail': 'Journal d’audit',
  'mail.done.combined': 'Tout en un seul fichier',
  'mail.copy.subject': 'Votre exemplaire signé : {title}',
  'mail.copy.subject_test': '[Test] Votre exemplaire signé : {title}',
  'mail.copy.lead':
    'Vous avez signé « {title} ». Voici votre exemplaire signé ; quand tout le monde aura signé, vous recevrez les documents définitifs et le journal d’audit.',
  'mail.cc.subject': 'Copie : « {title} » a été envoyé pour signature',
  'mail.cc.subject_test': '[Test] Copie : « {title} » a été envoyé pour signature',
  'mail.cc.lead':
    '{sender} a envoyé « {title} » pour signature et vous a mis en copie. Vous n’avez pas à signer.',
  'mail.cc.lead_to':
    '{sender} a envoyé « {title} » pour signature à {signers} et vous a mis en copie. Vous n’avez pas à signer.',
  'mail.cc.body':
    'Le lien ci-dessous montre les documents et qui a déjà signé. Quand tout le monde aura signé, vous recevrez les documents signés et le journal d’audit.',
  'mail.cc.button': 'Voir la demande (lecture seule)',
  'mail.cc.footer':
    'Ce lien montre la demande en lecture seule ; il ne permet pas de signer. Ne le transférez pas.',
  'mail.cc.done_lead':
    'Tout le monde a signé « {title} », sur lequel vous étiez en copie. Les documents signés et le journal d’audit :',
  'mail.cc.done_footer':
    'Vous recevez cet e-mail parce que l’expéditeur vous a mis en copie de cette demande.',
  'mail.cc.a_signer': 'un signataire',
};
