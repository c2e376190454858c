// Issue 47 (docs/roles.md): the email reminder of an approver or a viewer asks them to approve or to
// read, in the nine signer languages; parts.ts spreads each language's entries into its own.

export const PART_REMINDERS_EN = {
  'part.mail.approver.reminder_subject': 'Reminder: please approve "{title}"',
  'part.mail.approver.reminder_lead': 'A reminder: {sender} is waiting for your approval of "{title}".',
  'part.mail.viewer.reminder_subject': 'Reminder: please read "{title}"',
  'part.mail.viewer.reminder_lead':
    'A reminder: {sender} is waiting for you to read "{title}" and confirm it.',
} as const;

type PartReminders = Record<keyof typeof PART_REMINDERS_EN, string>;

export const PART_REMINDERS_DE: PartReminders = {
  'part.mail.approver.reminder_subject': 'Erinnerung: Bitte genehmigen Sie „{title}“',
  'part.mail.approver.reminder_lead': 'Eine Erinnerung: {sender} wartet auf Ihre Genehmigung von „{title}“.',
  'part.mail.viewer.reminder_subject': 'Erinnerung: Bitte lesen Sie „{title}“',
  'part.mail.viewer.reminder_lead':
    'Eine Erinnerung: {sender} bittet Sie weiterhin, „{title}“ zu lesen und dies zu bestätigen.',
};

export const PART_REMINDERS_FR: PartReminders = {
  'part.mail.approver.reminder_subject': 'Rappel : veuillez approuver « {title} »',
  'part.mail.approver.reminder_lead': 'Rappel : {sender} attend votre approbation de « {title} ».',
  'part.mail.viewer.reminder_subject': 'Rappel : veuillez lire « {title} »',
  'part.mail.viewer.reminder_lead': 'Rappel : {sender} attend que vous lisiez « {title} » et le confirmiez.',
};

export const PART_REMINDERS_ES: PartReminders = {
  'part.mail.approver.reminder_subject': 'Recordatorio: apruebe «{title}», por favor',
  'part.mail.approver.reminder_lead': 'Recordatorio: {sender} espera su aprobación de «{title}».',
  'part.mail.viewer.reminder_subject': 'Recordatorio: lea «{title}», por favor',
  'part.mail.viewer.reminder_lead': 'Recordatorio: {sender} espera que lea «{title}» y lo confirme.',
};

export const PART_REMINDERS_IT: PartReminders = {
  'part.mail.approver.reminder_subject': 'Promemoria: approvi «{title}»',
  'part.mail.approver.reminder_lead': 'Promemoria: {sender} attende la Sua approvazione di «{title}».',
  'part.mail.viewer.reminder_subject': 'Promemoria: legga «{title}»',
  'part.mail.viewer.reminder_lead': 'Promemoria: {sender} attende che Lei legga «{title}» e lo confermi.',
};

export const PART_REMINDERS_NL: PartReminders = {
  'part.mail.approver.reminder_subject': 'Herinnering: keur ‘{title}’ goed',
  'part.mail.approver.reminder_lead': 'Een herinnering: {sender} wacht op uw goedkeuring van ‘{title}’.',
  'part.mail.viewer.reminder_subject': 'Herinnering: lees ‘{title}’',
  'part.mail.viewer.reminder_lead':
    'Een herinnering: {sender} wacht tot u ‘{title}’ hebt gelezen en dat bevestigt.',
};

export const PART_REMINDERS_PL: PartReminders = {
  'part.mail.approver.reminder_subject': 'Przypomnienie: prośba o zatwierdzenie „{title}”',
  'part.mail.approver.reminder_lead': 'Przypomnienie: {sender} czeka na zatwierdzenie dokumentu „{title}”.',
  'part.mail.viewer.reminder_subject': 'Przypomnienie: prośba o przeczytanie „{title}”',
  'part.mail.viewer.reminder_lead':
    'Przypomnienie: {sender} czeka na przeczytanie dokumentu „{title}” i potwierdzenie.',
};

export const PART_REMINDERS_PT: PartReminders = {
  'part.mail.approver.reminder_subject': 'Lembrete: por favor, aprove “{title}”',
  'part.mail.approver.reminder_lead': 'Lembrete: {sender} está aguardando sua aprovação de “{title}”.',
  'part.mail.viewer.reminder_subject': 'Lembrete: por favor, leia “{title}”',
  'part.mail.viewer.reminder_lead':
    'Lembrete: {sender} está aguardando que você leia “{title}” e confirme a leitura.',
};

export const PART_REMINDERS_AR: PartReminders = {
  'part.mail.approver.reminder_subject': 'تذكير: يُرجى الموافقة على «{title}»',
  'part.mail.approver.reminder_lead': 'تذكير: ينتظر {sender} موافقتك على «{title}».',
  'part.mail.viewer.reminder_subject': 'تذكير: يُرجى قراءة «{title}»',
  'part.mail.viewer.reminder_lead': 'تذكير: ينتظر {sender} قراءتك لـ«{title}» وتأكيدها.',
};
