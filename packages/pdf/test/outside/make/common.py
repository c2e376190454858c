"""Shared pieces of the outside corpus generators: a throwaway PKI, the base documents, pyHanko signers.

Everything here is test material made on the fly; nothing of it is the product's.
"""

import datetime
import os
import sys
import zlib

from asn1crypto import crl as asn1_crl
from asn1crypto import keys as asn1_keys
from asn1crypto import x509 as asn1_x509
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID
from pyhanko.sign import signers
from pyhanko.sign.timestamps.dummy_client import DummyTimeStamper
from pyhanko_certvalidator import ValidationContext
from pyhanko_certvalidator.registry import SimpleCertificateStore

HERE = os.path.dirname(os.path.abspath(__file__))
FILES = os.path.normpath(os.path.join(HERE, '..', 'files'))
NOW = datetime.datetime.now(datetime.timezone.utc)
START = NOW - datetime.timedelta(days=30)
END = NOW + datetime.timedelta(days=365 * 30)
CDP = 'http://pki.outside.invalid/root.crl'


def _name(cn):
    return x509.Name([
        x509.NameAttribute(NameOID.COUNTRY_NAME, 'BE'),
        x509.NameAttribute(NameOID.ORGANIZATION_NAME, 'Outside Corpus'),
        x509.NameAttribute(NameOID.COMMON_NAME, cn),
    ])


def _cert(cn, key, issuer_cert, issuer_key, *, ca=False, eku=None, sig_hash=hashes.SHA256()):
    b = (
        x509.CertificateBuilder()
        .subject_name(_name(cn))
        .issuer_name(issuer_cert.subject if issuer_cert is not None else _name(cn))
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(START)
        .not_valid_after(END)
        .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
    )
    if ca:
        b = b.add_extension(
            x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True
        )
    else:
        b = b.add_extension(
            x509.KeyUsage(True, True, False, False, False, False, False, False, False), critical=True
        )
        b = b.add_extension(
            x509.CRLDistributionPoints([
                x509.DistributionPoint([x509.UniformResourceIdentifier(CDP)], None, None, None)
            ]),
            critical=False,
        )
    if eku:
        b = b.add_extension(x509.ExtendedKeyUsage(eku), critical=True)
    return b.sign(issuer_key if issuer_key is not None else key, sig_hash)


def _asn1_cert(c):
    return asn1_x509.Certificate.load(c.public_bytes(serialization.Encoding.DER))


def _asn1_key(k):
    return asn1_keys.PrivateKeyInfo.load(
        k.private_bytes(serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )


class Pki:
    """A root CA, two RSA signers, an ECDSA signer, a TSA and a CRL of the root; all in memory."""

    def __init__(self):
        self.root_key = rsa.generate_private_key(65537, 2048)
        self.root = _cert('Outside Corpus Root CA', self.root_key, None, None, ca=True)
        self.keys = {}
        self.certs = {}
        for name, key, eku in [
            ('alice', rsa.generate_private_key(65537, 2048), None),
            ('bob', rsa.generate_private_key(65537, 2048), None),
            ('carol-ecdsa', ec.generate_private_key(ec.SECP256R1()), None),
            ('tsa', rsa.generate_private_key(65537, 2048), [ExtendedKeyUsageOID.TIME_STAMPING]),
        ]:
            self.keys[name] = key
            self.certs[name] = _cert(f'Outside Corpus {name}', key, self.root, self.root_key, eku=eku)
        self.crl = (
            x509.CertificateRevocationListBuilder()
            .issuer_name(self.root.subject)
            .last_update(NOW - datetime.timedelta(hours=1))
            .next_update(NOW + datetime.timedelta(days=3650))
            .sign(self.root_key, hashes.SHA256())
        )

    def signer(self, name, *, sha1=False):
        return signers.SimpleSigner(
            signing_cert=_asn1_cert(self.certs[name]),
            signing_key=_asn1_key(self.keys[name]),
            cert_registry=SimpleCertificateStore.from_certs([_asn1_cert(self.root)]),
            prefer_pss=False,
        )

    def timestamper(self):
        return DummyTimeStamper(
            tsa_cert=_asn1_cert(self.certs['tsa']),
            tsa_key=_asn1_key(self.keys['tsa']),
            certs_to_embed=SimpleCertificateStore.from_certs([_asn1_cert(self.root)]),
        )

    def validation_context(self, extra_roots=()):
        return ValidationContext(
            trust_roots=[_asn1_cert(self.root), *extra_roots],
            crls=[asn1_crl.CertificateList.load(self.crl.public_bytes(serialization.Encoding.DER))],
            allow_fetching=False,
            revocation_mode='hard-fail',
        )

    def write_p12(self, name, path, password=b'outside'):
        from cryptography.hazmat.primitives.serialization import pkcs12

        data = pkcs12.serialize_key_and_certificates(
            name.encode(), self.keys[name], self.certs[name], [self.root],
            serialization.BestAvailableEncryption(password),
        )
        with open(path, 'wb') as f:
            f.write(data)


# ---- base documents -----------------------------------------------------------------------------

FEE_LINE = 'Fee: 1,200.00 EUR per month'


def _page_text(n, pages):
    lines = [
        (720, 18, f'Service agreement - page {n} of {pages}'),
        (680, 12, 'Between Outside Corpus Ltd and the Customer named below.'),
        (650, 12, 'The provider delivers the service described in annex A.'),
    ]
    if n == 1:
        lines.append((600, 14, FEE_LINE))
        lines.append((560, 12, 'Customer name:'))
    ops = []
    for y, size, text in lines:
        esc = text.replace('\\', '\\\\').replace('(', '\\(').replace(')', '\\)')
        ops.append(f'BT /F1 {size} Tf 60 {y} Td ({esc}) Tj ET')
    ops.append('0.5 w 60 540 m 550 540 l S')
    return '\n'.join(ops).encode('latin-1')


def base_pdf(pages=2, form=False):
    """A small hand-written PDF: Helvetica text with a fee line on page 1; optionally an AcroForm
    with an empty text field 'customer' on page 1 (for form-filling cases)."""
    objs = {}
    objs[1] = b'<< /Type /Catalog /Pages 2 0 R' + (b' /AcroForm 4 0 R' if form else b'') + b' >>'
    objs[3] = b'<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>'
    if form:
        objs[4] = b'<< /Fields [5 0 R] /DA (/Helv 0 Tf 0 g) /DR << /Font << /Helv 3 0 R >> >> >>'
        objs[5] = (
            b'<< /FT /Tx /T (customer) /Type /Annot /Subtype /Widget /Rect [160 552 400 574] '
            b'/P 10 0 R /F 4 /DA (/Helv 12 Tf 0 g) /MK << /BC [0 0 0] >> >>'
        )
    kids = []
    for i in range(pages):
        page_num = 10 + 2 * i
        content_num = page_num + 1
        kids.append(f'{page_num} 0 R'.encode())
        annots = b' /Annots [5 0 R]' if form and i == 0 else b''
        objs[page_num] = (
            b'<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> '
            + f'/Contents {content_num} 0 R'.encode() + annots + b' >>'
        )
        data = zlib.compress(_page_text(i + 1, pages))
        objs[content_num] = (
            f'<< /Length {len(data)} /Filter /FlateDecode >>\nstream\n'.encode() + data + b'\nendstream'
        )
    objs[2] = b'<< /Type /Pages /Kids [' + b' '.join(kids) + f'] /Count {pages} >>'.encode()
    out = bytearray(b'%PDF-1.7\n%\xe2\xe3\xcf\xd3\n')
    offsets = {}
    for num in sorted(objs):
        offsets[num] = len(out)
        out += f'{num} 0 obj\n'.encode() + objs[num] + b'\nendobj\n'
    size = max(objs) + 1
    xref = len(out)
    out += f'xref\n0 {size}\n'.encode() + b'0000000000 65535 f \n'
    for num in range(1, size):
        if num in offsets:
            out += f'{offsets[num]:010d} 00000 n \n'.encode()
        else:
            out += b'0000000000 65535 f \n'
    out += f'trailer\n<< /Size {size} /Root 1 0 R /ID [<{os.urandom(16).hex()}> <{os.urandom(16).hex()}>] >>\nstartxref\n{xref}\n%%EOF\n'.encode()
    return bytes(out)


def save(name, data):
    os.makedirs(FILES, exist_ok=True)
    with open(os.path.join(FILES, name), 'wb') as f:
        f.write(data)
    print(f'wrote {name} ({len(data)} bytes)', file=sys.stderr)
