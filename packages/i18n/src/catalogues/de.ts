import { auditDe } from './audit/de.ts';
import type { Catalogue } from './en.ts';
import { formDe } from './form/de.ts';
import { mailDe } from './mail/de.ts';
import { PARTS_DE } from './parts.ts';

/** German (Deutsch): formal address (Sie), as in business correspondence. */
export const de: Catalogue = {
  'lang.label': 'Sprache',

  'page.title': 'Dokument unterschreiben',
  'page.loading': 'Das Dokument wird geladen…',
  'page.noscript':
    'Diese Seite benötigt JavaScript, um das Dokument anzuzeigen und Ihre Unterschrift zu erfassen. Aktivieren Sie JavaScript in Ihrem Browser oder öffnen Sie den Link in einem anderen Browser. Falls das nicht möglich ist, wenden Sie sich an die Person, die Ihnen das Dokument geschickt hat.',
  'page.try_again': 'Erneut versuchen',
  'status.invalid_link.title': 'Dieser Link zum Unterschreiben ist ungültig',
  'status.invalid_link.body':
    'Prüfen Sie, ob Sie den vollständigen Link aus Ihrer E-Mail oder SMS geöffnet haben. Funktioniert er weiterhin nicht, bitten Sie den Absender um einen neuen Link.',
  'status.signed.title': 'Dokument unterschrieben',
  'status.signed.body':
    'Vielen Dank. Ihre Unterschrift wurde erfasst und der Absender benachrichtigt. Sie können diese Seite schließen.',
  'status.signed.redirect': 'Vielen Dank. Sie werden jetzt zurückgeleitet…',
  'status.declined.title': 'Sie haben die Unterschrift abgelehnt',
  'status.declined.body':
    'Der Absender wurde über Ihre Ablehnung informiert. Sie können diese Seite schließen.',
  'status.canceled.title': 'Diese Anfrage wurde zurückgezogen',
  'status.canceled.body':
    'Der Absender hat diese Signaturanfrage zurückgezogen, daher kann sie nicht mehr unterschrieben werden. Wenden Sie sich an den Absender, wenn Sie das für einen Irrtum halten.',
  'status.expired.title': 'Dieser Link zum Unterschreiben ist abgelaufen',
  'status.expired.body':
    'Die Frist zum Unterschreiben dieses Dokuments ist verstrichen. Bitten Sie den Absender, es erneut zu senden.',
  'status.archived.title': 'Dieses Dokument ist nicht mehr verfügbar',
  'status.archived.body':
    'Der Absender hat die Vorlage dieser Anfrage zurückgezogen, daher kann sie nicht mehr unterschrieben werden.',
  'status.other_declined.title': 'Diese Anfrage wurde abgelehnt',
  'status.other_declined.body':
    'Eine andere unterzeichnende Person hat diese Signaturanfrage abgelehnt, daher kann sie nicht mehr unterschrieben werden.',
  'status.completed.title': 'Dieses Dokument ist vollständig unterschrieben',
  'status.completed.body': 'Alle haben dieses Dokument unterschrieben. Für Sie ist nichts mehr zu tun.',
  'status.waiting.title': 'Sie sind noch nicht an der Reihe',
  'status.waiting.body':
    'Jemand anderes muss dieses Dokument vor Ihnen unterschreiben. Sie erhalten eine Nachricht mit Ihrem Link, sobald Sie an der Reihe sind.',
  'status.finished.title': 'Sie sind bereits fertig',
  'status.finished.body':
    'Dieses Dokument wurde bereits unterschrieben oder abgelehnt, daher öffnet dieser Link es nicht mehr. Sie können diese Seite schließen.',
  'status.closed.title': 'Diese Anfrage ist geschlossen',
  'status.closed.body':
    'Sie kann nicht mehr unterschrieben werden: Der Absender hat sie zurückgezogen, jemand hat sie abgelehnt oder die Frist ist abgelaufen. Wenden Sie sich an den Absender, wenn Sie noch unterschreiben müssen.',
  'status.rate_limited.title': 'Zu viele Versuche',
  'status.rate_limited.body': 'Bitte warten Sie eine Minute und versuchen Sie es dann erneut.',
  'status.network.title': 'Der Server ist nicht erreichbar',
  'status.network.body': 'Prüfen Sie Ihre Internetverbindung und versuchen Sie es dann erneut.',
  'status.error.title': 'Etwas ist schiefgelaufen',
  'status.error.body':
    'Das Dokument konnte nicht geladen werden. Versuchen Sie es gleich noch einmal; tritt der Fehler weiter auf, wenden Sie sich an den Absender.',

  'code.title': 'Bestätigen Sie Ihre E-Mail-Adresse',
  'code.intro_titled': 'Um „{title}“ zu öffnen, geben Sie einen Einmalcode ein, den wir an {email} senden.',
  'code.intro': 'Um dieses Dokument zu öffnen, geben Sie einen Einmalcode ein, den wir an {email} senden.',
  'code.you': 'Sie',
  'code.send': 'Code per E-Mail senden',
  'code.send_again': 'Neuen Code senden',
  'code.sent': 'Wir haben einen Code an {email} gesendet.',
  'code.sent_until': 'Wir haben einen Code an {email} gesendet. Er ist bis {time} Uhr gültig.',
  'code.label': 'Code aus der E-Mail',
  'code.hint': 'Sehen Sie in Ihrem Posteingang nach und, falls er dort nicht ist, im Spam-Ordner.',
  'code.verify': 'Bestätigen',
  'code.too_short': 'Geben Sie den Code aus der E-Mail ein.',
  'code.title_sms': 'Bestätigen Sie Ihre Telefonnummer',
  'code.intro_titled_sms':
    'Um „{title}“ zu öffnen, geben Sie einen Einmalcode ein, den wir Ihnen per SMS senden.',
  'code.intro_sms':
    'Um dieses Dokument zu öffnen, geben Sie einen Einmalcode ein, den wir Ihnen per SMS senden.',
  'code.send_sms': 'Code per SMS senden',
  'code.label_sms': 'Code aus der SMS',
  'code.hint_sms': 'Es kann eine Minute dauern, bis sie ankommt.',
  'code.too_short_sms': 'Geben Sie den Code aus der SMS ein.',
  'code.wait_minute': 'einer Minute',
  'code.wait_seconds': '{count, plural, one {# Sekunde} other {# Sekunden}}',
  'code.wait_minutes': '{count, plural, one {# Minute} other {# Minuten}}',
  'code.request_limited': 'Wir können noch keinen weiteren Code senden. Versuchen Sie es in {wait} erneut.',
  'code.verify_limited': 'Zu viele Versuche. Versuchen Sie es in {wait} erneut.',
  'code.network':
    'Der Server ist nicht erreichbar. Prüfen Sie Ihre Internetverbindung und versuchen Sie es erneut.',

  'sign.document': 'Dokument',
  'sign.doc_title': 'Unterschreiben: {title}',
  'sign.signing_as': 'Sie unterschreiben als {who}',
  'sign.signing_as_role': 'Sie unterschreiben als {who} ({role})',
  'sign.preview_as': 'Vorschau als {role}: Ihre Eingaben werden nicht gespeichert',
  'sign.badge_preview': 'Vorschau',
  'sign.badge_test': 'Test',
  'sign.sender_message': 'Nachricht des Absenders',
  'sign.intro_none':
    'Lesen Sie das Dokument und wählen Sie dann „Fertig“, um es zu prüfen und zu unterschreiben.',
  'sign.intro':
    'Füllen Sie die markierten Felder im Dokument aus{required, plural, =0 {} one {; das mit * gekennzeichnete Feld ist ein Pflichtfeld} other {; die # mit * gekennzeichneten Felder sind Pflichtfelder}}. „Nächstes Feld“ führt Sie der Reihe nach zu jedem Feld. Wählen Sie „Fertig“, wenn Sie alles ausgefüllt haben: Vor dem Unterschreiben prüfen Sie Ihre Eingaben noch einmal.',
  'sign.others_note':
    'Was {names} bereits unterschrieben hat, wird im Dokument so angezeigt, wie es in der unterschriebenen Fassung erscheint.',
  'sign.announce':
    '{title}. {fields, plural, one {# Feld} other {# Felder}} auszufüllen, davon {required, plural, one {# Pflichtfeld} other {# Pflichtfelder}}.',
  'sign.next': 'Nächstes Feld',
  'sign.finish': 'Fertig',
  'sign.decline': 'Ablehnen',
  'sign.fit': 'Seite einpassen',
  'sign.progress': '{done} von {total} Pflichtfeldern ausgefüllt',
  'sign.page_label': '{name}, Seite {page} von {pages}',
  'sign.page_error':
    'Diese Seite konnte nicht geladen werden. Laden Sie die Seite neu, um es erneut zu versuchen.',
  'sign.required_tip': 'Pflichtfeld',
  'sign.other_signer': 'Eine andere unterzeichnende Person',
  'sign.other_signed_by': 'Unterschrieben von {who}: {field}, {value}',
  'sign.other_filled_by': 'Ausgefüllt von {who}',
  'sign.a_picture': 'ein Bild',
  'sign.prefilled_said': '{field}, vom Absender ausgefüllt: {value}',
  'sign.field_required': '{field}, Pflichtfeld',

  'value.empty': 'leer',
  'value.checked': 'angekreuzt',
  'value.not_checked': 'nicht angekreuzt',
  'value.signed': 'unterschrieben',
  'value.initialled': 'paraphiert',
  'value.image_added': 'Bild hinzugefügt',
  'value.file': 'Datei {name}',
  'type.text': 'Text',
  'type.signature': 'Unterschrift',
  'type.initials': 'Initialen',
  'type.date': 'Datum',
  'type.checkbox': 'Kontrollkästchen',
  'type.number': 'Zahl',
  'type.phone': 'Telefonnummer',
  'type.select': 'Liste',
  'type.radio': 'Auswahl',
  'type.multiple': 'Mehrfachauswahl',
  'type.image': 'Bild',
  'type.file': 'Datei',
  'type.stamp': 'Stempel',
  'type.cells': 'Text in Kästchen',
  'field.label': '{name} ({type})',
  'field.label_required': '{name} ({type}, Pflichtfeld)',
  'field.description': 'Feld „{type}“, optional',
  'field.description_required': 'Feld „{type}“, Pflichtfeld',

  'fill.checkbox_checked': '{field} angekreuzt.',
  'fill.field_cleared': '{field} geleert.',
  'fill.field_saved': '{field} gespeichert.',
  'fill.checkbox_unchecked': '{field} nicht angekreuzt.',
  'fill.left': '{count, plural, one {Noch # Pflichtfeld.} other {Noch # Pflichtfelder.}}',
  'fill.all_done': 'Alle Pflichtfelder sind ausgefüllt.',
  'fill.all_done_finish': 'Alle Pflichtfelder sind ausgefüllt. Wählen Sie „Fertig“, um zu unterschreiben.',
  'fill.checkbox_hint': '{field}: Kontrollkästchen. Drücken Sie die Leertaste, um es anzukreuzen.',
  'fill.save': 'Speichern',
  'fill.save_next': 'Speichern und weiter',

  'edit.clear': 'Löschen',
  'edit.cancel': 'Abbrechen',
  'edit.close': 'Schließen',
  'edit.choose': 'Bitte wählen…',
  'edit.hint_phone': 'Zum Beispiel +49 30 1234567.',
  'edit.hint_date': 'Geben Sie das Datum so ein: {example}.',
  'edit.hint_cells': 'Jedes Zeichen kommt in ein eigenes Kästchen im Dokument.',
  'edit.hint_multiline': 'Eingabetaste für eine neue Zeile, Strg+Eingabetaste zum Speichern.',
  'edit.image_choose': '{field}: Bild auswählen',
  'edit.image_preview': 'Vorschau des ausgewählten Bildes',
  'edit.image_added': 'Ein Bild ist hinzugefügt.',
  'edit.image_hint': 'PNG oder JPEG. Große Bilder werden vor dem Hochladen verkleinert.',
  'edit.image_preparing': 'Das Bild wird vorbereitet…',
  'edit.file_choose': '{field}: Datei auswählen',
  'edit.file_added': 'Hinzugefügt: {name}',
  'edit.file_hint': 'Bis zu 10 MB.',
  'edit.file_reading': 'Die Datei wird gelesen…',
  'edit.file_ready': '{name} ist bereit.',
  'edit.error_image_type': 'Wählen Sie eine Bilddatei (PNG oder JPEG).',
  'edit.error_image_read': 'Dieses Bild konnte nicht gelesen werden. Wählen Sie eine PNG- oder JPEG-Datei.',
  'edit.error_image_large': 'Dieses Bild ist zu groß. Wählen Sie ein kleineres.',
  'edit.error_file_large': 'Diese Datei ist größer als {mb} MB.',
  'edit.error_file_read': 'Diese Datei konnte nicht gelesen werden.',
  'edit.error_text_long': 'Verwenden Sie höchstens {max} Zeichen.',
  'edit.error_number': 'Geben Sie eine Zahl ein, zum Beispiel {example}.',
  'edit.error_phone': 'Geben Sie eine Telefonnummer ein: nur Ziffern, Leerzeichen und + ( ) - . /',
  'edit.error_date': 'Geben Sie ein Datum so ein: {example}.',
  'edit.error_no_text': 'In dieses Feld kann kein Text eingegeben werden.',
  'edit.error_required': 'Dieses Feld ist ein Pflichtfeld.',
  'edit.error_choose': 'Wählen Sie eine der Optionen.',

  'sig.current': 'Aktuell',
  'sig.use_mine': '{initials, select, true {Meine Initialen verwenden} other {Meine Unterschrift verwenden}}',
  'sig.draw': 'Zeichnen',
  'sig.type': 'Tippen',
  'sig.upload': 'Hochladen',
  'sig.how':
    '{initials, select, true {So fügen Sie Ihre Initialen hinzu} other {So fügen Sie Ihre Unterschrift hinzu}}',
  'sig.yours': '{initials, select, true {Ihre Initialen} other {Ihre Unterschrift}}',
  'sig.pad':
    '{initials, select, true {Zeichenfläche für Ihre Initialen.} other {Zeichenfläche für Ihre Unterschrift.}} Zeichnen Sie mit Maus, Finger oder Stift, oder wählen Sie „Tippen“, um sie einzutippen.',
  'sig.draw_hint':
    '{initials, select, true {Zeichnen Sie Ihre Initialen in das Feld.} other {Zeichnen Sie Ihre Unterschrift in das Feld.}}',
  'sig.clear_drawing': 'Zeichnung löschen',
  'sig.draw_missing':
    '{initials, select, true {Zeichnen Sie Ihre Initialen in das Feld oder wählen Sie „Tippen“, um sie einzutippen.} other {Zeichnen Sie Ihre Unterschrift in das Feld oder wählen Sie „Tippen“, um sie einzutippen.}}',
  'sig.type_label':
    '{initials, select, true {Geben Sie Ihre Initialen ein} other {Geben Sie Ihren vollständigen Namen ein}}',
  'sig.for_field': ' für {field}',
  'sig.type_missing':
    '{initials, select, true {Geben Sie Ihre Initialen ein.} other {Geben Sie Ihren Namen ein.}}',
  'sig.upload_label':
    '{initials, select, true {Ein Bild Ihrer Initialen hochladen} other {Ein Bild Ihrer Unterschrift hochladen}}',
  'sig.uploaded': '{initials, select, true {Hochgeladene Initialen} other {Hochgeladene Unterschrift}}',
  'sig.upload_hint': 'PNG oder JPEG, am besten auf weißem oder hellem Hintergrund.',
  'sig.upload_missing':
    '{initials, select, true {Wählen Sie ein Bild Ihrer Initialen.} other {Wählen Sie ein Bild Ihrer Unterschrift.}}',

  'problem.title': 'Es gibt ein Problem',
  'problem.missing': '{count, plural, one {Ein Pflichtfeld ist leer} other {# Pflichtfelder sind leer}}',
  'problem.request_failed': 'Anfrage fehlgeschlagen',
  'problem.something_wrong': 'Etwas ist schiefgelaufen.',
  'problem.no_server': 'Der Server war nicht erreichbar.',
  'save.preview': 'Vorschau: Es wird nichts gespeichert',
  'save.unsaved': 'Nicht gespeicherte Änderungen',
  'save.saving': 'Wird gespeichert…',
  'save.saved': 'Alle Änderungen gespeichert',
  'save.retrying': 'Noch nicht gespeichert, neuer Versuch…',
  'save.failed': 'Nicht gespeichert',
  'save.failed_detail': 'Ihre letzte Änderung konnte nicht gespeichert werden: {reason}',

  'review.preview_ok':
    'Vorschau: Alle Pflichtfelder sind ausgefüllt. Eine Vorschau unterschreibt nichts und speichert nichts.',
  'review.title': 'Prüfen und unterschreiben',
  'review.description':
    'Prüfen Sie Ihre Eingaben. Um etwas zu ändern, wählen Sie „Abbrechen“ und bearbeiten Sie das Feld.',
  'review.sign': 'Unterschreiben',
  'review.by_sender': ' (vom Absender ausgefüllt)',
  'review.nothing': 'Sie müssen nichts ausfüllen: Sie unterschreiben das Dokument so, wie es ist.',
  'review.list': 'Ihre Eingaben',
  'review.signing': 'Das Dokument wird unterschrieben…',
  'review.session_ended': 'Ihre Sitzung ist abgelaufen: Geben Sie einen neuen Code aus der E-Mail ein.',
  'review.session_ended_sms': 'Ihre Sitzung ist abgelaufen: Geben Sie einen neuen Code aus der SMS ein.',
  'review.network':
    'Das Dokument konnte nicht unterschrieben werden, weil der Server nicht erreichbar war. Prüfen Sie Ihre Verbindung und wählen Sie erneut „Unterschreiben“.',
  'review.failed': 'Das Dokument konnte nicht unterschrieben werden: {reason}',
  'consent.text':
    'Mit der Auswahl von „Unterschreiben“ erklären Sie sich damit einverstanden, dass Ihre elektronische Unterschrift und die von Ihnen eingegebenen Werte Ihrer handschriftlichen Unterschrift auf diesem Dokument rechtlich gleichgestellt sind.',

  'decline.title': 'Unterschrift ablehnen',
  'decline.description':
    'Der Absender erfährt, dass Sie abgelehnt haben, und Ihren Grund. Danach können Sie dieses Dokument nicht mehr unterschreiben.',
  'decline.label': 'Grund der Ablehnung (erforderlich)',
  'decline.hint': 'Zum Beispiel: Die Angaben im Dokument sind falsch.',
  'decline.submit': 'Ablehnen',
  'decline.missing': 'Geben Sie einen Grund für die Ablehnung ein.',
  'decline.failed': 'Ablehnen nicht möglich: {reason}',

  ...mailDe,

  'link.page_title': '{title} unterschreiben',
  'link.intro':
    'Geben Sie Ihren Namen und Ihre E-Mail-Adresse ein. Wir senden Ihnen einen Code zur Bestätigung der Adresse, danach können Sie das Dokument lesen und unterschreiben.',
  'link.name': 'Vollständiger Name',
  'link.email': 'E-Mail-Adresse',
  'link.send': 'Code per E-Mail senden',
  'link.code_page_title': 'E-Mail-Adresse bestätigen – {title}',
  'link.code_sent': 'Wir haben einen sechsstelligen Code an {email} gesendet. Er ist 10 Minuten gültig.',
  'link.code_label': 'Code aus der E-Mail',
  'link.confirm': 'Bestätigen und Dokument öffnen',
  'link.off.title': 'Dieser Link zum Unterschreiben ist deaktiviert',
  'link.off.body':
    '{title}: Der Inhaber hat diesen Link deaktiviert. Wenden Sie sich an ihn, wenn Sie noch unterschreiben müssen.',
  'link.full.title': 'Dieser Link zum Unterschreiben ist nicht mehr verfügbar',
  'link.full.body':
    '{title}: Die vom Inhaber erlaubte Anzahl an Unterschriften ist erreicht. Wenden Sie sich an ihn, wenn Sie noch unterschreiben müssen.',
  'link.not_found': 'Link zum Unterschreiben nicht gefunden',
  'link.not_open': 'Dieser Link zum Unterschreiben ist nicht verfügbar',
  'link.refused': 'Abgelehnt',
  'link.refused_body': 'Dieses Formular kann nur von dieser Website aus gesendet werden.',
  'link.bad_email': 'Geben Sie eine gültige E-Mail-Adresse ein, etwa name@example.com.',
  'link.bad_name': 'Geben Sie Ihren vollständigen Namen ein.',
  'link.bad_code': 'Geben Sie den sechsstelligen Code aus der E-Mail ein.',
  'link.code_unknown': 'Diese Code-Anfrage ist unbekannt; fordern Sie einen neuen Code an.',
  'link.code_used':
    'Dieser Code wurde bereits verwendet; öffnen Sie den Link erneut, um ein weiteres Exemplar zu unterschreiben.',
  'link.code_expired': 'Dieser Code ist abgelaufen; fordern Sie einen neuen an.',
  'link.code_too_many': 'Zu viele falsche Codes: Fordern Sie einen neuen Code an.',
  'link.code_wrong': 'Dieser Code stimmt nicht; prüfen Sie die E-Mail und versuchen Sie es erneut.',
  'link.code_other_link': 'Dieser Code gehört zu einem anderen Link.',
  'link.busy': 'Dieser Unterschriftslink ist ausgelastet; versuchen Sie es in {minutes} Min. erneut.',
  'link.too_many_email':
    'An diese E-Mail-Adresse wurden zu viele Codes gesendet; versuchen Sie es in {minutes} Min. erneut.',
  'link.too_many_ip':
    'Aus Ihrem Netzwerk wurden zu viele Codes angefordert; versuchen Sie es in {minutes} Min. erneut.',

  ...auditDe,
  'sms.invite': '{sender} bittet Sie, "{title}" zu unterschreiben.',
  'sms.next': 'Sie sind an der Reihe, "{title}" zu unterschreiben, gesendet von {sender}.',
  'sms.reminder': 'Erinnerung: {sender} wartet auf Ihre Unterschrift unter "{title}".',
  'sms.expires': 'Link gültig bis {date}.',
  'sms.private': 'Privater Link, nicht weiterleiten:',
  'sms.code':
    '{code} ist Ihr Code, um "{title}" von {sender} zu unterschreiben. Er gilt {minutes, plural, one {# Minute} other {# Minuten}}. Geben Sie ihn nie weiter.',
  'sms.done': 'Alle haben "{title}" unterschrieben. Ihre unterschriebene Fassung, bis {date}:',
  'sms.done_test':
    'Alle haben "{title}" unterschrieben (Testmodus, nicht rechtsverbindlich). Ihre unterschriebene Fassung, bis {date}:',
  'delegate.button': 'Jemand anderes unterschreibt',
  'delegate.title': 'An eine andere Person übergeben',
  'delegate.description':
    'Nennen Sie die Person, die an Ihrer Stelle unterschreiben soll. Sie erhält einen eigenen Link und beginnt mit einem leeren Formular; Ihre Eingaben werden verworfen. Der Absender wird mit Ihrer Begründung informiert. Ihr Link funktioniert danach nicht mehr.',
  'delegate.name': 'Vollständiger Name (Pflichtfeld)',
  'delegate.email': 'E-Mail-Adresse',
  'delegate.phone': 'Oder Telefonnummer',
  'delegate.contact_hint':
    'Eine E-Mail-Adresse oder eine Telefonnummer im internationalen Format, zum Beispiel +49 30 1234567.',
  'delegate.language': 'Ihre Sprache (Einladung und Unterschriftsseite)',
  'delegate.reason': 'Warum soll diese Person an Ihrer Stelle unterschreiben? (Pflichtfeld)',
  'delegate.reason_hint':
    'Zum Beispiel: Ich habe diese Aufgabe nicht mehr; meine Kollegin betreut diesen Vertrag.',
  'delegate.submit': 'Übergeben',
  'delegate.need_name': 'Geben Sie den Namen der Person ein, die stattdessen unterschreibt.',
  'delegate.need_contact': 'Geben Sie ihre E-Mail-Adresse oder Telefonnummer ein.',
  'delegate.need_reason': 'Geben Sie eine Begründung ein.',
  'delegate.failed': 'Übergabe nicht möglich: {reason}',
  'delegate.done_title': 'An eine andere Person übergeben',
  'delegate.done_body':
    '{name} unterschreibt an Ihrer Stelle, und der Absender wurde informiert. Dieser Link funktioniert nicht mehr; Sie können diese Seite schließen.',
  'error.link_invalid': 'Dieser Link zum Unterschreiben ist ungültig',
  'error.not_open': 'Diese Signaturanfrage ist abgeschlossen; der Link funktioniert nicht mehr',
  'error.all_signed': 'Dieses Dokument haben bereits alle unterschrieben',
  'error.signer_signed': 'Sie haben dieses Dokument bereits unterschrieben',
  'error.signer_declined': 'Sie haben die Unterschrift dieses Dokuments bereits abgelehnt',
  'error.not_turn': 'Sie sind noch nicht an der Reihe; zuerst muss eine andere Person unterschreiben',
  'error.code_wrong': 'Dieser Code ist falsch; {left, plural, one {noch # Versuch} other {noch # Versuche}}',
  'error.code_expired': 'Dieser Code ist abgelaufen; fordern Sie einen neuen an',
  'error.code_locked':
    'Zu viele falsche Codes: Dieser Code funktioniert nicht mehr. Fordern Sie einen neuen an.',
  'error.code_none': 'Es wartet kein Code auf Eingabe; fordern Sie einen neuen an',
  'error.delegation_off': 'Der Absender dieser Anfrage erlaubt keine Übergabe an eine andere Person',
  'error.delegation_contact': 'Geben Sie eine E-Mail-Adresse oder Telefonnummer der neuen Person ein',
  'error.delegation_self': 'Nennen Sie eine andere Person als sich selbst',
  'error.delegation_phone':
    'Geben Sie die Telefonnummer im internationalen Format ein, zum Beispiel +49 30 1234567',
  'error.missing_fields':
    '{count, plural, one {Pflichtfeld fehlt: {names}} other {Pflichtfelder fehlen: {names}}}',
  'error.prefilled': 'Das Feld „{field}“ hat der Absender ausgefüllt; es kann nicht geändert werden',
  'error.value_text': '„{field}“: Geben Sie hier Text ein',
  'error.value_too_long': '„{field}“: höchstens {max, number} Zeichen',
  'error.value_phone': '„{field}“: Geben Sie eine Telefonnummer ein, zum Beispiel +49 30 1234567',
  'error.value_date': '„{field}“: Geben Sie ein gültiges Datum ein, etwa {example}',
  'error.value_number': '„{field}“: Geben Sie eine Zahl ein, etwa {example}',
  'error.value_choice': '„{field}“: Wählen Sie aus den angebotenen Möglichkeiten',
  'error.value_image':
    '„{field}“: Dieses Bild kann nicht verwendet werden; nehmen Sie ein PNG- oder JPEG-Bild mit höchstens 3 MB',
  'error.value_file':
    '„{field}“: Diese Datei kann nicht verwendet werden; eine Datei darf höchstens 10 MB groß sein',
  ...formDe,
  'error.value_unknown': '„{field}“ gehört nicht zu Ihren Feldern in diesem Dokument',
  'error.code_not_needed': 'Für diesen Link ist kein Code nötig',
  'error.code_no_address':
    'Es gibt keine E-Mail-Adresse und keine Telefonnummer, an die ein Code gehen kann; wenden Sie sich an den Absender',
  'error.code_sms_capped':
    'Es wurde Ihnen kein Code per SMS gesendet: Das SMS-Tageslimit des Absenders ist erreicht. Wenden Sie sich an {who}, um zu unterschreiben.',

  // The read-only page of a CC recipient (/cc/{token}), in the request's language (issue 42.6)
  'cc.page_title': '{title} (Kopie)',
  'cc.lead':
    'Sie wurden bei dieser Anfrage in Kopie gesetzt. Diese Seite ist schreibgeschützt: Mit ihr kann nicht unterschrieben werden.',
  'cc.lead_by':
    '{sender} hat Sie bei dieser Anfrage in Kopie gesetzt. Diese Seite ist schreibgeschützt: Mit ihr kann nicht unterschrieben werden.',
  'cc.status.sent': 'Wartet auf Unterschriften',
  'cc.status.in_progress': 'Wird unterschrieben',
  'cc.status.completed': 'Abgeschlossen: Alle haben unterschrieben',
  'cc.status.declined': 'Von einer unterzeichnenden Person abgelehnt',
  'cc.status.canceled': 'Vom Absender storniert',
  'cc.status.expired': 'Abgelaufen',
  'cc.signer.waiting': 'Noch nicht an der Reihe',
  'cc.signer.sent': 'Eingeladen',
  'cc.signer.viewed': 'Dokument geöffnet',
  'cc.signer.signed': 'Unterschrieben',
  'cc.signer.declined': 'Abgelehnt',
  'cc.a_signer': 'Unterzeichner',
  'cc.signers': 'Unterzeichnende',
  'cc.col_signer': 'Unterzeichner',
  'cc.col_status': 'Status',
  'cc.col_signed': 'Unterschrieben',
  'cc.documents': 'Dokumente',
  'cc.signed_documents': 'Unterschriebene Dokumente',
  'cc.audit_trail': 'Prüfprotokoll',
  'cc.footer':
    'Gesendet am {date}. Die Links zu den Dateien sind nur begrenzt gültig; laden Sie diese Seite neu, um neue zu erhalten.',
  'cc.not_found.title': 'Link nicht gefunden',
  'cc.not_found.body': 'Dieser Link ist ungültig. Bitten Sie den Absender um eine neue Kopie.',
  'file.combined': '{title} - unterschrieben',
  'file.audit_trail': '{title} - Prüfprotokoll',
  ...PARTS_DE,
};
