"""Signed PDFs written by pyHanko (see README.md for how to run): legitimate signatures and
extensions, and illegitimate later changes. Each file goes to ../files/ as ph-*.pdf."""

import io
import zlib

from pyhanko.pdf_utils import generic
from pyhanko.pdf_utils.generic import pdf_name, pdf_string
from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.sign import fields, signers
from pyhanko.sign.fields import MDPPerm, SigSeedSubFilter
from pyhanko.sign.signers.pdf_signer import PdfSigner, PdfTimeStamper
from pyhanko.sign.validation import add_validation_info

from common import Pki, base_pdf, save

pki = Pki()


def writer(data):
    return IncrementalPdfFileWriter(io.BytesIO(data), strict=False)


def sign(data, who='alice', *, field='Signature1', box=None, page=0, timestamp=False, lta=False,
         certify=False, perm=MDPPerm.FILL_FORMS, md=None, subfilter=SigSeedSubFilter.PADES, force=False):
    meta = signers.PdfSignatureMetadata(
        field_name=field,
        md_algorithm=md,
        certify=certify,
        docmdp_permissions=perm,
        subfilter=subfilter,
        embed_validation_info=lta,
        use_pades_lta=lta,
        validation_context=pki.validation_context() if lta else None,
        reason='Outside corpus',
    )
    spec = fields.SigFieldSpec(field, box=box, on_page=page) if box else None
    pdf_signer = PdfSigner(
        meta,
        signer=pki.signer(who),
        timestamper=pki.timestamper() if (timestamp or lta) else None,
        new_field_spec=spec,
    )
    if force:
        # An illegitimate writer: ignores the certification's "no changes".
        pdf_signer._enforce_certification_constraints = lambda reader: None
    out = io.BytesIO()
    pdf_signer.sign_pdf(writer(data), output=out)
    return out.getvalue()


def written(w):
    out = io.BytesIO()
    w.write(out)
    return out.getvalue()


def lta_update(data):
    """DSS with the validation data of every signature, then a document timestamp (pyHanko's
    archival timestamp chain update)."""
    out = io.BytesIO()
    PdfTimeStamper(pki.timestamper()).update_archival_timestamp_chain(
        PdfFileReader(io.BytesIO(data)), pki.validation_context(), in_place=False, output=out
    )
    return out.getvalue()


def timestamp_with_dss(data):
    """pyHanko's document timestamp with a /DSS holding its TSA's chain and CRL (validation data
    and a document timestamp, nothing else), without reading the signatures already there."""
    out = io.BytesIO()
    PdfTimeStamper(pki.timestamper()).timestamp_pdf(writer(data), 'sha256', pki.validation_context(), output=out)
    return out.getvalue()


def add_dss_and_timestamp(data):
    r = PdfFileReader(io.BytesIO(data))
    out = add_validation_info(r.embedded_signatures[0], pki.validation_context(), in_place=False)
    w = writer(out.getvalue())
    ts_out = io.BytesIO()
    PdfTimeStamper(pki.timestamper()).timestamp_pdf(
        w, 'sha256', pki.validation_context(), output=ts_out
    )
    return ts_out.getvalue()


def appearance(w, width, height, ops, font=True):
    res = generic.DictionaryObject()
    if font:
        # The document's own Helvetica (page 1's /F1), so no new font object is added.
        page1 = w.root['/Pages']['/Kids'][0]
        helv = page1['/Resources']['/Font'].raw_get('/F1')
        res[pdf_name('/Font')] = generic.DictionaryObject({pdf_name('/Helv'): helv})
    stream = generic.StreamObject(
        {
            pdf_name('/Type'): pdf_name('/XObject'),
            pdf_name('/Subtype'): pdf_name('/Form'),
            pdf_name('/BBox'): generic.ArrayObject(map(generic.FloatObject, [0, 0, width, height])),
            pdf_name('/Resources'): res,
        },
        stream_data=ops,
    )
    return w.add_object(stream)


def fill_customer(data, value='ACME Industries'):
    """Fills the text field 'customer' (its /V and a new appearance), as a form-filling reader would."""
    w = writer(data)
    field_ref = w.root['/AcroForm']['/Fields'].raw_get(0)
    field = field_ref.get_object()
    field[pdf_name('/V')] = pdf_string(value)
    ap = appearance(w, 240, 22, f'/Tx BMC BT /Helv 12 Tf 2 6 Td ({value}) Tj ET EMC'.encode())
    field[pdf_name('/AP')] = generic.DictionaryObject({pdf_name('/N'): ap})
    w.mark_update(field_ref)
    out = io.BytesIO()
    w.write(out)
    return out.getvalue()


FEE_RECT = [55, 592, 330, 618]


def add_annotation(data, *, over_fee, text='Fee waived: 0.00 EUR', fee_rect=FEE_RECT):
    """A FreeText annotation on page 1, either over the fee line (opaque, hides it) or in the margin."""
    w = writer(data)
    rect = fee_rect if over_fee else [420, 740, 590, 770]
    ap = appearance(
        w, rect[2] - rect[0], rect[3] - rect[1],
        f'1 g 0 0 {rect[2] - rect[0]} {rect[3] - rect[1]} re f 0 g BT /Helv 12 Tf 4 8 Td ({text}) Tj ET'.encode(),
    )
    annot = w.add_object(generic.DictionaryObject({
        pdf_name('/Type'): pdf_name('/Annot'),
        pdf_name('/Subtype'): pdf_name('/FreeText'),
        pdf_name('/Rect'): generic.ArrayObject(map(generic.FloatObject, rect)),
        pdf_name('/Contents'): pdf_string(text),
        pdf_name('/DA'): pdf_string('/Helv 12 Tf 0 g'),
        pdf_name('/F'): generic.NumberObject(4),
        pdf_name('/AP'): generic.DictionaryObject({pdf_name('/N'): ap}),
    }))
    page_ref = w.root['/Pages']['/Kids'].raw_get(0)
    w.register_annotation(page_ref, annot)
    out = io.BytesIO()
    w.write(out)
    return out.getvalue()


def change_page_content(data, fee_y=600):
    """Appends a content stream to page 1 that paints the fee line over with another fee."""
    w = writer(data)
    ops = f'q 1 g 55 {fee_y - 8} 300 28 re f Q BT /F1 14 Tf 60 {fee_y} Td (Fee: 12.00 EUR per month) Tj ET'.encode()
    stream = w.add_object(generic.StreamObject(stream_data=ops))
    w.add_stream_to_page(0, stream)
    out = io.BytesIO()
    w.write(out)
    return out.getvalue()


VISIBLE = (330, 80, 550, 140)
VISIBLE2 = (60, 80, 280, 140)


def main():
    plain = base_pdf(2)
    form = base_pdf(2, form=True)

    save('ph-approval-invisible.pdf', sign(plain))
    save('ph-approval-visible-ts.pdf', sign(plain, box=VISIBLE, timestamp=True))
    two = sign(plain, field='Alice')
    save('ph-two-signers.pdf', sign(two, 'bob', field='Bob', box=VISIBLE))

    # P=2 permits filling in and signing the form's fields, not adding fields: the approver's
    # visible signature field is part of the certified form.
    slot = writer(form)
    fields.append_signature_field(slot, fields.SigFieldSpec('Approver', box=VISIBLE, on_page=0))
    p2 = sign(written(slot), certify=True, perm=MDPPerm.FILL_FORMS, field='Author')
    save('ph-certify-p2-fill-sign.pdf', sign(fill_customer(p2), 'bob', field='Approver'))
    p3 = sign(plain, certify=True, perm=MDPPerm.ANNOTATE, field='Author')
    save('ph-certify-p3-annotation.pdf', add_annotation(p3, over_fee=False, text='Reviewed'))
    p1 = sign(plain, certify=True, perm=MDPPerm.NO_CHANGES, field='Author', timestamp=True)
    save('ph-certify-p1-lta-update.pdf', add_dss_and_timestamp(p1))

    blta = sign(plain, lta=True)
    save('ph-pades-b-lta.pdf', blta)
    save('ph-pades-b-lta-renewed.pdf', lta_update(blta))
    save('ph-sha1-pkcs7.pdf', sign(plain, md='sha1', subfilter=SigSeedSubFilter.ADOBE_PKCS7_DETACHED))
    save('ph-ecdsa.pdf', sign(plain, 'carol-ecdsa', box=VISIBLE))

    # Illegitimate later changes.
    approved = sign(plain, timestamp=True)
    save('ph-bad-approval-then-content.pdf', change_page_content(approved))
    save('ph-bad-approval-then-annotation-over-fee.pdf', add_annotation(approved, over_fee=True))
    p1form = sign(form, certify=True, perm=MDPPerm.NO_CHANGES, field='Author')
    save('ph-bad-certify-p1-field-filled.pdf', fill_customer(p1form))
    save('ph-bad-certify-p1-then-signature.pdf', sign(p1, 'bob', field='Late', box=VISIBLE, force=True))
    save('ph-bad-certify-p2-then-annotation-over-fee.pdf', add_annotation(p2, over_fee=True))

    # Inputs for mutool sign and qpdf (see other.sh): unsigned fields, and a PKCS#12.
    one = writer(plain)
    fields.append_signature_field(one, fields.SigFieldSpec('MutoolOne', box=VISIBLE, on_page=0))
    buf = io.BytesIO()
    one.write(buf)
    two_fields = writer(buf.getvalue())
    fields.append_signature_field(two_fields, fields.SigFieldSpec('MutoolTwo', box=VISIBLE2, on_page=0))
    buf2 = io.BytesIO()
    two_fields.write(buf2)
    import os, sys
    work = sys.argv[1] if len(sys.argv) > 1 else '/tmp/outside-work'
    os.makedirs(work, exist_ok=True)
    open(os.path.join(work, 'two-fields.pdf'), 'wb').write(buf2.getvalue())
    pki.write_p12('alice', os.path.join(work, 'alice.p12'))
    pki.write_p12('bob', os.path.join(work, 'bob.p12'))


if __name__ == '__main__':
    main()
