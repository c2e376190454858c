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
    with open(os.path.join(ROOT, 'manifest.json'), 'w') as f:
        json.dump(ENTRIES, f, indent=2)
        f.write('\n')
    print(f'{len(ENTRIES)} entries', file=sys.stderr)


if __name__ == '__main__':
    main()
