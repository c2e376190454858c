"""Writes ../manifest.json: every file of ../files with its writer, source, expected verdict and
pyHanko's validator as an oracle (validate.py). The expected verdicts are written here by hand,
from the rules of issue 40 (see README.md), never from any verifier's output."""

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, '..'))
PYHANKO = 'MatthiasValvekens/pyHanko@99ab33b81095e0e80d34909851931a2959e8ff9e (v0.20.1, MIT)'
PYHANKO_TESTS = 'MatthiasValvekens/pyHanko@99ab33b81095e0e80d34909851931a2959e8ff9e:pyhanko_tests/data/pdf/'
DSS = 'esig/dss@d9473b8efea72fd5754623fa92bb9311f2b005c5:dss-pades/src/test/resources/validation/'
DSS_LICENCE = ' (LGPL-2.1; expected outcome from the test named)'


def sig(kind, valid=True, level=None, mod=None):
    out = {'kind': kind, 'valid': valid}
    if mod:
        out['modificationLevel'] = mod
    if level:
        out['level'] = level
    return out


A, C, T = 'approval', 'certification', 'document_timestamp'
INTACT, MODIFIED = 'intact_signature', 'modified'


def e(file, writer, source, description, verdict, signatures):
    return {'file': file, 'writer': writer, 'source': source, 'description': description,
            'expect': {'verdict': verdict, 'signatures': signatures}}


def ph(file, description, verdict, signatures):
    return e(file, 'pyhanko', f'make/pyhanko_cases.py with {PYHANKO}', description, verdict, signatures)


def ours(file, description, verdict, signatures):
    return e(file, 'esign+pyhanko', f'make/esign-seals.ts, then make/ours.py with {PYHANKO}', description,
             verdict, signatures)


ENTRIES = [
    ph('ph-approval-invisible.pdf', 'One invisible PAdES approval signature (RSA, SHA-256), no timestamp.', INTACT,
       [sig(A, level='B-B', mod='none')]),
    ph('ph-approval-visible-ts.pdf', 'One visible PAdES approval signature with a signature timestamp.', INTACT,
       [sig(A, level='B-T', mod='none')]),
    ph('ph-two-signers.pdf', 'Two approval signatures by two signers; the second is visible and creates its field.',
       INTACT, [sig(A, level='B-B', mod='form_filling'), sig(A, level='B-B', mod='none')]),
    ph('ph-certify-p2-fill-sign.pdf',
       'Certification DocMDP P=2 (the form holds a text field and an empty visible signature field), then the text '
       'field filled, then the approver signs the prepared signature field.', INTACT,
       [sig(C, level='B-B', mod='form_filling'), sig(A, level='B-B', mod='none')]),
    ph('ph-certify-p3-annotation.pdf', 'Certification DocMDP P=3, then a FreeText annotation added in the top margin '
       '(no text under it). pyHanko 0.20 has no rule for annotations and reports OTHER.', INTACT,
       [sig(C, level='B-B', mod='annotations')]),
    ph('ph-certify-p1-lta-update.pdf', 'Certification DocMDP P=1 with a signature timestamp, then a /DSS (TSA chain and '
       'CRL) and a document timestamp.', INTACT,
       [sig(C, level='B-LTA', mod='validation_data'), sig(T, mod='none')]),
    ph('ph-pades-b-lta.pdf', 'PAdES B-LTA approval signature by pyHanko: signature timestamp, /DSS with the chain and '
       'the CA\'s CRL, a document timestamp.', INTACT, [sig(A, level='B-LTA', mod='validation_data'), sig(T, mod='none')]),
    ph('ph-pades-b-lta-renewed.pdf', 'ph-pades-b-lta.pdf extended by pyHanko\'s archival timestamp chain update '
       '(DSS for the first document timestamp, then a second one).', INTACT,
       [sig(A, level='B-LTA', mod='validation_data'), sig(T, mod='validation_data'), sig(T, mod='none')]),
    ph('ph-sha1-pkcs7.pdf', 'adbe.pkcs7.detached approval signature with SHA-1 (valid, weak).', INTACT,
       [sig(A, mod='none')]),
    ph('ph-ecdsa.pdf', 'Visible PAdES approval signature with ECDSA P-256.', INTACT, [sig(A, level='B-B', mod='none')]),
    ph('ph-bad-approval-then-content.pdf', 'Approval signature (B-T), then an update appends a content stream to '
       'page 1 painting a new fee over the signed one.', MODIFIED, [sig(A, level='B-T', mod='other')]),
    ph('ph-bad-approval-then-annotation-over-fee.pdf', 'Approval signature (B-T), then an opaque FreeText annotation '
       'over the fee line (annotations are not permitted without a certification).', MODIFIED,
       [sig(A, level='B-T', mod='annotations')]),
    ph('ph-bad-certify-p1-field-filled.pdf', 'Certification DocMDP P=1, then the form\'s text field filled.', MODIFIED,
       [sig(C, level='B-B', mod='form_filling')]),
    ph('ph-bad-certify-p1-then-signature.pdf', 'Certification DocMDP P=1 (B-T), then a visible approval signature by '
       'another signer (pyHanko\'s own check bypassed).', MODIFIED,
       [sig(C, level='B-T', mod='form_filling'), sig(A, level='B-B', mod='none')]),
    ph('ph-bad-certify-p2-then-annotation-over-fee.pdf', 'Certification DocMDP P=2, then an opaque FreeText annotation '
       'over the fee line (P=2 does not permit annotations).', MODIFIED, [sig(C, level='B-B', mod='annotations')]),
    e('mutool-one-visible.pdf', 'mutool', 'make/other.sh: mutool sign (MuPDF 1.21.1) of a pyHanko-prepared field',
      'One visible adbe.pkcs7.detached signature by mutool sign (SHA-1 digest); a second signature field stays empty.',
      INTACT, [sig(A, mod='none')]),
    e('mutool-two-visible.pdf', 'mutool', 'make/other.sh: mutool sign twice (MuPDF 1.21.1)',
      'Two visible signatures by mutool sign, by two signers, into two prepared fields.', INTACT,
      [sig(A, mod='form_filling'), sig(A, mod='none')]),
    e('qpdf-rewritten.pdf', 'qpdf', 'make/other.sh: qpdf ph-approval-invisible.pdf qpdf-rewritten.pdf (qpdf 11)',
      'A signed file rewritten by qpdf: no longer an incremental update, the /ByteRange no longer matches.',
      MODIFIED, [sig(A, valid=False)]),
    e('qpdf-qdf.pdf', 'qpdf', 'make/other.sh: qpdf --qdf ph-approval-invisible.pdf qpdf-qdf.pdf',
      'A signed file rewritten by qpdf --qdf (uncompressed, renumbered).', MODIFIED, [sig(A, valid=False)]),
]

for level in ('B-B', 'B-LTA'):
    ts = [sig(T, mod='none')] if level == 'B-LTA' else []
    seal_level = level
    ENTRIES += [
        e(f'esign-{level}.pdf', 'esign', 'make/esign-seals.ts (sealDocument, corpus identity and TSA)',
          f'This service\'s own seal of the issue-30 contract at {level}, as sealed (the base of the next four).',
          INTACT, [sig(C, level=seal_level, mod='validation_data' if ts else 'none'), *ts]),
        ours(f'esign-{level}-ph-annotation-over-fee.pdf', f'Our {level} seal (certification P=1), then pyHanko adds an '
             'opaque FreeText annotation over "Fee: EUR 4,000".', MODIFIED,
             [sig(C, mod='annotations'), *[sig(T, mod='annotations')] * len(ts)]),
        ours(f'esign-{level}-ph-visible-signature.pdf', f'Our {level} seal (certification P=1), then pyHanko adds a '
             'visible approval signature (P=1 permits no new signature).', MODIFIED,
             [sig(C, mod='form_filling'), *[sig(T, mod='form_filling')] * len(ts), sig(A, level='B-B', mod='none')]),
        ours(f'esign-{level}-ph-lta-update.pdf', f'Our {level} seal, then pyHanko adds a /DSS (its TSA\'s chain and CRL) '
             'and a document timestamp: validation data only, which P=1 permits.', INTACT,
             [sig(C, level='B-T' if level == 'B-B' else 'B-LTA', mod='validation_data'),
              *[sig(T, mod='validation_data')] * len(ts), sig(T, mod='none')]),
        ours(f'esign-{level}-ph-content-change.pdf', f'Our {level} seal, then pyHanko appends a content stream to page 1 '
             'that paints another fee over the signed one.', MODIFIED,
             [sig(C, mod='other'), *[sig(T, mod='other')] * len(ts)]),
    ]


def dss(file, path, test, description, verdict, signatures):
    return e(file, 'esig/dss test corpus', f'{DSS}{path}{DSS_LICENCE}: {test}', description, verdict, signatures)


def pyt(file, test, description, verdict, signatures):
    return e(file, 'pyHanko test corpus', f'{PYHANKO_TESTS}{file.removeprefix("pyhanko-tests-")} (MIT): {test}',
             description, verdict, signatures)


ENTRIES += [
    dss('dss-pdf-signed-original.pdf', 'pdf-signed-original.pdf', 'PAdESSimpleValidationTest',
        'A plain PAdES signature (DSS test file).', INTACT, [sig(A, mod='none')]),
    dss('dss-pdf-signed-corrupted.pdf', 'pdf-signed-corrupted.pdf', 'PAdESSimpleCorruptedTest (signature not intact, '
        'byte range invalid)', 'The same file with bytes changed inside the signed range.', MODIFIED, [sig(A, valid=False)]),
    dss('dss-pdf-signed-added-page.pdf', 'pdf-signed-added-page.pdf', 'PAdESWithAddedPageTest (TOTAL_FAILED / '
        'FORMAT_FAILURE, page 2 added)', 'A page added after signing.', MODIFIED, [sig(A, mod='other')]),
    dss('dss-hide.pdf', 'dss-2236/hide.pdf', 'DSS2236HideTest (undefined object modifications)',
        'Shadow attack (hide): content hidden by a later update.', MODIFIED, [sig(A, mod='other')]),
    dss('dss-replace.pdf', 'dss-2236/replace.pdf', 'DSS2236ReplaceTest (undefined object modifications)',
        'Shadow attack (replace): a form field\'s appearance replaced after signing.', MODIFIED, [sig(A, mod='other')]),
    dss('dss-pades-signed-annot-added.pdf', 'pades-signed-annot-added.pdf', 'PAdESLevelBWithAnnotAddedTest (annotation '
        'changes, no undefined changes)', 'Annotations added after an approval signature (no certification).',
        MODIFIED, [sig(A, level='B-B', mod='annotations')]),
    dss('dss-TeleSec_PKS_eIDAS_QES_CA_1-baseline-b.pdf', 'dss-PLAIN-ECDSA/TeleSec_PKS_eIDAS_QES_CA_1-baseline-b.pdf',
        'PAdESWithPlainECDSACryptoValidationTest (intact, valid)', 'German qualified signature, plain ECDSA '
        '(BSI TR-03111, OID 0.4.0.127.0.7.1.1.4.1.3), B-B.', INTACT, [sig(A, level='B-B', mod='none')]),
    dss('dss-muestra-firmado-firmado.pdf', 'muestra-firmado-firmado.pdf', 'DSS2574Test (no modifications detected)',
        'Spanish sample: two signers, each followed by a document timestamp.', INTACT,
        [sig(A, mod='form_filling'), sig(T, mod='form_filling'), sig(A, mod='validation_data'), sig(T, mod='none')]),
    dss('dss-doc-firmado-LT.pdf', 'doc-firmado-LT.pdf', 'DSS1469LTTest (PAdES-BASELINE-LT)',
        'Spanish signature extended to B-LT with a /DSS update.', INTACT, [sig(A, level='B-LT', mod='validation_data')]),
    dss('dss-pdf-byterange-overlap.pdf', 'pdf-byterange-overlap.pdf', 'DSS2451Test (one valid signature, one '
        'FORMAT_FAILURE for its byte range)', 'Two signatures, the second with a /ByteRange that overlaps.', MODIFIED,
        [sig(A, mod='none'), sig(A, valid=False)]),
    pyt('pyhanko-tests-minimal-two-fields-signed-twice.pdf', 'test_diff_analysis.py test_double_sig_adobe_reader',
        'Adobe Reader: two prepared fields signed one after the other.', INTACT,
        [sig(A, mod='form_filling'), sig(A, mod='none')]),
    pyt('pyhanko-tests-minimal-signed-twice-second-created.pdf', 'test_diff_analysis.py test_double_sig_adobe_reader',
        'Adobe Reader: a prepared field signed, then a second signature in a field Reader created.', INTACT,
        [sig(A, mod='form_filling'), sig(A, mod='none')]),
    pyt('pyhanko-tests-minimal-signed-twice-both-created.pdf', 'test_diff_analysis.py test_double_sig_adobe_reader',
        'Adobe Reader: two signatures, both fields created by Reader (object streams, XMP update).', INTACT,
        [sig(A, mod='form_filling'), sig(A, mod='none')]),
    pyt('pyhanko-tests-sig-no-signed-attrs.pdf', 'test_cms.py test_verify_sig_without_signed_attrs (validated, intact)',
        'A CMS signature without signed attributes.', INTACT, [sig(A, mod='none')]),
]


# Issue 40 item 6, second batch: more of the DSS corpus (national eIDs, Adobe, iText, OpenPDF, PDFKit.NET,
# linearized and hybrid-xref originals, certifications, several signers, document timestamps, form
# filling, files DSS finds modified). Verdicts from each test's assertions: AbstractPAdESTestValidation
# by default asserts every signature intact and valid (checkBLevelValid) and no visual modification nor
# undefined object change (checkPdfRevision); an entry names what its test overrides.
ENTRIES += [
    dss('dss-Signature-P-BG_BOR-2.pdf', 'Signature-P-BG_BOR-2.pdf', 'PAdESDssAndVriTest (default integrity and '
        'revision checks, T and A levels valid)', 'Bulgarian eID signature (B-Trust), DSS/VRI and a document '
        'timestamp; hybrid-xref original.', INTACT, [sig(A), sig(T)]),
    dss('dss-Signature-P-DE_SCI-4.pdf', 'Signature-P-DE_SCI-4.pdf', 'PAdESWithOcspFromDssRevisionTest (default '
        'checks, two DSS revisions, T and A levels valid)', 'German signature, OCSP responses in two /DSS '
        'revisions, a document timestamp.', INTACT, [sig(A), sig(T)]),
    dss('dss-Signature-P-FR_CS-5.pdf', 'Signature-P-FR_CS-5.pdf', 'PAdESWithDssVriAndCertRefTest (default checks, '
        'PAdES_LTV)', 'French signature (Universign), two document timestamps, DSS/VRI; hybrid-xref file.', INTACT,
        [sig(A), sig(T), sig(T)]),
    dss('dss-Signature-P-HU_MIC-1.pdf', 'Signature-P-HU_MIC-1.pdf', 'DSS2116WithPAdESTest (default checks)',
        'Hungarian signature (Microsec), single revision, Ghostscript original.', INTACT, [sig(A, mod='none')]),
    dss('dss-Signature-P-HU_POL-3.pdf', 'Signature-P-HU_POL-3.pdf', 'PAdESRevocationOriginTest (no modifications; '
        'extension changes only: no signature/form-fill, annotation or undefined change)', 'Hungarian signature '
        '(Adobe Acrobat 9.4.6), DSS with CRLs and OCSPs, a document timestamp.', INTACT,
        [sig(A, mod='validation_data'), sig(T, mod='none')]),
    dss('dss-Signature-P-HU_POL-7.pdf', 'Signature-P-HU_POL-7.pdf', 'PAdESOverwrittenDSSDictTest (default checks, '
        'both signatures PAdES_BASELINE_LTA)', 'Hungarian file: two signers, each followed by a DSS and a document '
        'timestamp.', INTACT, [sig(A, level='B-LTA'), sig(T), sig(A, level='B-LTA'), sig(T)]),
    dss('dss-Signature-P-SK-6.pdf', 'Signature-P-SK-6.pdf', 'PAdESMultiSignedDocRevocTest (default checks, two '
        'signatures)', 'Slovak file (Adobe PDF Library): two signatures and an RFC 3161 timestamp between them.',
        INTACT, [sig(A), sig(T), sig(A)]),
    dss('dss-Signature-P-PK7-2.pdf', 'Signature-P-PK7-2.pdf', 'DSS2258Test (default checks, PKCS7_T)',
        'adbe.pkcs7.detached signature with a signature timestamp; linearized original.', INTACT, [sig(A)]),
    dss('dss-Signature-P-HU_NET-2.pdf', 'Signature-P-HU_NET-2.pdf', 'PAdESInvalidDigestAlgorithmTest (signature not '
        'intact, not valid)', 'Hungarian signature whose CMS names a digest algorithm that does not match: not '
        'intact.', MODIFIED, [sig(A, valid=False)]),
    dss('dss-belgian_pki_multiple_ocsps.pdf', 'belgian_pki_multiple_ocsps.pdf', 'DSS2513Test (default checks)',
        'Belgian eID signature with several OCSP responses and a document timestamp; hybrid-xref file.', INTACT,
        [sig(A), sig(T)]),
    dss('dss-doc-firmado.pdf', 'doc-firmado.pdf', 'DSS1469Test (default checks, PAdES_BASELINE_T)',
        'Costa Rican national-root signature (FPDF original) with a document timestamp.', INTACT,
        [sig(A, level='B-T'), sig(T)]),
    dss('dss-Certipost-2048-SHA512-extended-LTA.pdf', 'Test.signed_Certipost-2048-SHA512.extended-LTA.pdf',
        'DSS1690Test (default checks, T and A levels valid)', 'Belgian Certipost signature (SHA-512) extended '
        'with two document timestamps.', INTACT, [sig(A), sig(T), sig(T)]),
    dss('dss-pades-enveloping-other-pdf.pdf', 'pades-enveloping-other-pdf.pdf', 'PAdESEnvelopingOtherPdfTest '
        '(default checks, no modifications, not TOTAL_FAILED)', 'Swedish service (signera.ebox.nu): certification '
        'DocMDP P=2, then a document timestamp.', INTACT, [sig(C), sig(T)]),
    dss('dss-DSS-2821.pdf', 'DSS-2821.pdf', 'DSS2821Test (signature PAdES_BASELINE_B with extension changes only; '
        'the earlier document timestamp sees undefined changes)', 'LibreOffice file timestamped, then modified '
        'and signed with iText: the changes after the document timestamp include undefined ones.', MODIFIED,
        [sig(T, mod='other'), sig(A, level='B-B', mod='validation_data')]),
    dss('dss-DSS-3298.pdf', 'DSS-3298.pdf', 'DSS3298Test (default checks)', 'OpenPDF 1.3.30 signature and a '
        'document timestamp.', INTACT, [sig(A), sig(T)]),
    dss('dss-pkcs7.pdf', 'pkcs7.pdf', 'PdfPkcs7Test (default checks, PKCS7_T)', 'Acrobat Web Capture document, '
        'adbe.pkcs7.detached signature; linearized original.', INTACT, [sig(A, mod='none')]),
    dss('dss-pkcs7_sha1.pdf', 'pkcs7_sha1.pdf', 'PdfPkcs7WithSha1SubFilterTest (default checks, two signatures)',
        'Adobe PDF Library 8 file: an adbe.pkcs7.sha1 signature, then an adbe.pkcs7.detached one.', INTACT,
        [sig(A), sig(A)]),
    dss('dss-hello_signed_INCSAVE_signed.pdf', 'hello_signed_INCSAVE_signed.pdf', 'DSS917Test (default checks, two '
        'signatures)', 'Two signatures with an incremental save between them.', INTACT, [sig(A), sig(A)]),
    dss('dss-hello_signed_INCSAVE_signed_EDITED.pdf', 'hello_signed_INCSAVE_signed_EDITED.pdf',
        'DSS917CorruptedTest (first signature not B-level valid, its byte range invalid; second valid)',
        'The same file with the first signature\'s signed bytes edited.', MODIFIED, [sig(A, valid=False), sig(A)]),
    dss('dss-timestamped_and_signed.pdf', 'timestamped_and_signed.pdf', 'TimestampedAndSignedTest (default checks, '
        'signature PAdES_BASELINE_B)', 'A document timestamp first, then a signature; hybrid-xref file.', INTACT,
        [sig(T), sig(A, level='B-B', mod='none')]),
    dss('dss-timestamped-fields.pdf', 'timestamped-fields.pdf', 'PAdESTimestampedExistingFieldsTest (no signature; '
        'the first timestamp sees extension changes only)', 'Two document timestamps into existing fields, no '
        'signature; linearized original. The second timestamp is drawn into its existing field: signing a field, '
        'form filling on this scale (DSS files it under extension changes).', INTACT,
        [sig(T, mod='form_filling'), sig(T, mod='none')]),
    dss('dss-pades-signed-filled-form.pdf', 'pades-signed-filled-form.pdf', 'PAdESLevelBWithFilledFormTest '
        '(extension and form-fill changes, no annotation or undefined change)', 'A signature, then the form '
        'filled in; linearized original.', INTACT, [sig(A, mod='form_filling')]),
    dss('dss-pdf-removed-pages.pdf', 'pdf-removed-pages.pdf', 'PAdESWithRemovedPagesTest (TOTAL_FAILED / '
        'FORMAT_FAILURE, pages 2 and 3 differ)', 'Pages removed after signing.', MODIFIED, [sig(A, mod='other')]),
    dss('dss-pdf-spoofing-attack.pdf', 'pdf-spoofing-attack.pdf', 'PAdESWithSpoofingAttackTest (undefined '
        'changes)', 'Acrobat 9 signature followed by a spoofing update.', MODIFIED, [sig(A, mod='other')]),
    dss('dss-pades-spoofing-replaced-reason.pdf', 'pades-spoofing-replaced-reason.pdf',
        'PAdESSpoofingAttackReplacementTest (one undefined change: the /Reason modified)',
        'The signature dictionary\'s /Reason replaced by a later update.', MODIFIED, [sig(A, mod='other')]),
    dss('dss-annotation-and-visible-change.pdf', 'dss-2236/annotation-and-visible-change.pdf',
        'AnnotationAndVisualChangeTest (first signature: form-fill, annotation and undefined changes)',
        'Adobe Sign: an approval, a certification P=3 and a certification P=1, with annotations and visible '
        'changes between them.', MODIFIED, [sig(A, mod='other'), sig(C), sig(C)]),
    dss('dss-pdf-signed-out-of-byteRange.pdf', 'pdf-signed-out-of-byteRange.pdf', 'PAdESOutOfByteRangeTest '
        '(signature not intact)', 'A byte range that does not cover what was signed.', MODIFIED,
        [sig(A, valid=False)]),
    dss('dss-pdf-structtreeroot-changes.pdf', 'pdf-structtreeroot-changes.pdf',
        'PdfPkcs7StructTreeRootObjectModificationsTest (first: signature/form-fill and extension changes; '
        'no annotation or undefined change)', 'Two adbe.pkcs7.detached signatures; the second update touches the '
        'structure tree; hybrid-xref file.', INTACT, [sig(A, mod='form_filling'), sig(A, mod='none')]),
    dss('dss-pades-ltv.pdf', 'pades-ltv.pdf', 'PAdESLTVValidationTest (default checks, PAdES_LTV)',
        'Signature with a DSS and two document timestamps.', INTACT, [sig(A), sig(T), sig(T)]),
    dss('dss-pdf-with-vri-timestamp.pdf', 'pdf-with-vri-timestamp.pdf', 'PAdESWithVRITimeStampTest (default '
        'checks, PAdES_BASELINE_B)', 'Signature, then a DSS whose VRI carries a timestamp; linearized original.',
        INTACT, [sig(A, level='B-B')]),
    dss('dss-DSS-1983.pdf', 'DSS-1983.pdf', 'DSS1983Test (default checks, T and A levels valid)',
        'PDFCreator document, signature and a document timestamp; linearized original.', INTACT, [sig(A), sig(T)]),
    dss('dss-adbe_ocsp_signed.pdf', 'adbe_ocsp_signed.pdf', 'DSS1794OcspTest (default checks)',
        'Microsoft Word original signed in Adobe with an adbe-revocationInfoArchival OCSP; linearized.', INTACT,
        [sig(A)]),
    dss('dss-adbe_crl_signed.pdf', 'adbe_crl_signed.pdf', 'DSS1794CrlTest (default checks, T and A levels valid)',
        'Adobe signature with an archival CRL, then two document timestamps; linearized original.', INTACT,
        [sig(A), sig(T), sig(T)]),
    dss('dss-DSS-3567.pdf', 'DSS-3567.pdf', 'DSS3567Test (default checks)', 'PDFKit.NET 12 signature (Brazilian '
        'field name).', INTACT, [sig(A)]),
    dss('dss-DSS-3577.pdf', 'DSS-3577.pdf', 'DSS3577Test (extension and signature/form-fill changes, no annotation '
        'or undefined change; FieldMDP lock, changes permitted)', 'PDFKit.NET 12 signature with a '
        'field lock (/Lock, FieldMDP: an approval, not a certification), then form changes.', INTACT,
        [sig(A, mod='form_filling')]),
    dss('dss-DSS-3226.pdf', 'DSS-3226.pdf', 'DSS3226Test (default checks)', 'Two signers, each in its own field.',
        INTACT, [sig(A, mod='form_filling'), sig(A, mod='none')]),
    dss('dss-DSS-2025.pdf', 'DSS-2025.pdf', 'DSS2025Test (default checks)', 'adbe.pkcs7.detached signature; '
        'linearized original.', INTACT, [sig(A)]),
    dss('dss-PAdES-LT.pdf', 'PAdES-LT.pdf', 'DSS2471Test (three signatures, one PAdES_BASELINE_T and two '
        'PAdES_BASELINE_LT; extension changes, no annotation or undefined change)', 'Three signers and a '
        'document timestamp; hybrid-xref file.', INTACT, [sig(A, mod='form_filling'), sig(A), sig(T), sig(A)]),
]


# Corrections made after reading the files (issue 40), each with why; applied last so that the
# entries above keep what their source said.
CORRECTIONS = {
    # A DSS revision (the TSA's own validation data) follows the last document timestamp.
    **{f: lambda e: e['expect']['signatures'][-1].update(modificationLevel='validation_data')
       for f in ['ph-certify-p1-lta-update.pdf', 'ph-pades-b-lta.pdf', 'ph-pades-b-lta-renewed.pdf',
                 'esign-B-B-ph-lta-update.pdf', 'esign-B-LTA.pdf', 'esign-B-LTA-ph-lta-update.pdf']},
    # A second signature was added after the first: form filling and signing.
    'dss-pdf-byterange-overlap.pdf': lambda e: e['expect']['signatures'][0].update(modificationLevel='form_filling'),
    # The first signature's bytes hash to its digest; the edit broke the second (DSS lists the
    # signatures latest first).
    'dss-hello_signed_INCSAVE_signed_EDITED.pdf': lambda e: e['expect'].update(
        signatures=[sig(A), {'kind': 'approval', 'valid': False}]),
    # The rewritten signature dictionary is listed as a signature of its own, which does not verify.
    **{f: lambda e: e['expect']['signatures'].append({'kind': 'approval', 'valid': False})
       for f in ['dss-pdf-spoofing-attack.pdf', 'dss-pades-spoofing-replaced-reason.pdf']},
    # ES_LOCKING_SIGNATURE is an approval whose FieldMDP lock carries /P 1 (PDF 2.0); pyHanko 0.20
    # calls it a certification.
    'dss-annotation-and-visible-change.pdf': lambda e: e['expect']['signatures'][2].update(kind='approval'),
}


def main():
    files = sorted(os.listdir(os.path.join(ROOT, 'files')))
    names = [x['file'] for x in ENTRIES]
    missing = sorted(set(files) - set(names)) + sorted(set(names) - set(files))
    if missing:
        sys.exit(f'manifest and files/ differ: {missing}')
    oracle = json.loads(subprocess.run(
        [sys.executable, os.path.join(HERE, 'validate.py'), *[os.path.join(ROOT, 'files', n) for n in names]],
        check=True, capture_output=True, text=True,
    ).stdout)
    for x in ENTRIES:
        x['pyhanko'] = oracle[x['file']]
        if x['file'] in CORRECTIONS:
            CORRECTIONS[x['file']](x)
    with open(os.path.join(ROOT, 'manifest.json'), 'w') as f:
        json.dump(ENTRIES, f, indent=2)
        f.write('\n')
    print(f'{len(ENTRIES)} entries', file=sys.stderr)


if __name__ == '__main__':
    main()
