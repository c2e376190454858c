import type { MailMessages } from './en.ts';

/** The emails to signers, and to the addresses the sender copied (cc). */
export const mailAr: MailMessages = {
  'mail.hello': 'مرحبًا،',
  'mail.hello_name': 'مرحبًا {name}،',
  'mail.invite.lead': 'يطلب منك {sender} مراجعة «{title}» وتوقيعه.',
  'mail.handed_over': 'أحال إليك {from} هذا الطلب لتوقّع بدلًا منه. السبب: {reason}',
  'mail.invite.subject': 'يُرجى توقيع «{title}»',
  'mail.next.lead': 'حان دورك لتوقيع «{title}» الذي أرسله {sender}.',
  'mail.reminder.lead': 'تذكير: ينتظر {sender} توقيعك على «{title}».',
  'mail.reminder.subject': 'تذكير: يُرجى توقيع «{title}»',
  'mail.expires': 'تنتهي صلاحية الرابط في {date}.',
  'mail.button': 'المراجعة والتوقيع',
  'mail.or_open': 'أو افتح: {url}',
  'mail.private': 'هذا الرابط خاص بك: يستطيع كل من يملكه أن يوقّع نيابةً عنك. لا تُعِد توجيهه.',
  'mail.code.subject': '{code} هو رمز التوقيع الخاص بك',
  'mail.code.body': 'رمزك لفتح «{title}» هو {code}.',
  'mail.code.valid':
    'الرمز صالح لمدة {minutes, plural, zero {# دقيقة} one {دقيقة واحدة} two {دقيقتين} few {# دقائق} many {# دقيقة} other {# دقيقة}}. إن لم تطلبه، فتجاهل هذه الرسالة.',
  'mail.code.footer': 'لا تشارك هذا الرمز مع أحد أبدًا.',
  'mail.done.subject': 'اكتمل: {title}',
  'mail.done.subject_test': '[تجريبي] اكتمل: {title}',
  'mail.done.lead': 'وقّع الجميع على «{title}». نسختك الموقّعة وسجل التدقيق جاهزان للتنزيل:',
  'mail.done.until': 'تعمل هذه الروابط حتى {date}.',
  'mail.done.test': 'أُرسل هذا في الوضع التجريبي: المستندات غير ملزمة قانونًا.',
  'mail.done.audit_trail': 'سجل التدقيق',
  'mail.done.combined': 'كل شيء في ملف واحد',
  'mail.copy.subject': 'نسختك الموقّعة: {title}',
  'mail.copy.subject_test': '[اختبار] نسختك الموقّعة: {title}',
  'mail.copy.lead':
    'لقد وقّعت «{title}». هذه نسختك الموقّعة؛ عندما يوقّع الجميع ستصلك المستندات النهائية وسجل التدقيق.',
  'mail.cc.subject': 'نسخة: أُرسل «{title}» للتوقيع',
  'mail.cc.subject_test': '[اختبار] نسخة: أُرسل «{title}» للتوقيع',
  'mail.cc.lead': 'أرسل {sender} «{title}» للتوقيع وأضافك في النسخة. لا يُطلب منك التوقيع.',
  'mail.cc.lead_to': 'أرسل {sender} «{title}» للتوقيع إلى {signers} وأضافك في النسخة. لا يُطلب منك التوقيع.',
  'mail.cc.body':
    'يعرض الرابط أدناه المستندات ومن وقّع حتى الآن. عندما يوقّع الجميع ستصلك المستندات الموقّعة وسجل التدقيق.',
  'mail.cc.button': 'عرض الطلب (للقراءة فقط)',
  'mail.cc.footer': 'يعرض هذا الرابط الطلب للقراءة فقط؛ ولا يمكن استخدامه للتوقيع. لا تعد توجيهه.',
  'mail.cc.done_lead': 'وقّع الجميع على «{title}» الذي أُضفت إليه في النسخة. المستندات الموقّعة وسجل التدقيق:',
  'mail.cc.done_footer': 'تصلك هذه الرسالة لأن المرسل أضافك في نسخة هذا الطلب.',
  'mail.cc.a_signer': 'أحد الموقّعين',
};
