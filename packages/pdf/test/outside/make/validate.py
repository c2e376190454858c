"""pyHanko's validator as an oracle: for each file given, each signature's integrity and pyHanko's
difference analysis (modification level, DocMDP), printed as one JSON object keyed by file name.

Trust is not what this oracle checks: each signature is validated with the certificates it
carries as trust roots, revocation checking off and no fetching."""

import json
import os
import sys
import warnings

from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.sign.validation import validate_pdf_signature, validate_pdf_timestamp
from pyhanko_certvalidator import ValidationContext

warnings.filterwarnings('ignore')


def self_trust(embedded):
    certs = list(embedded.other_embedded_certs) + [embedded.signer_cert]
    # SHA-1 is allowed here (weak_hash_algos empty): the oracle reports the digest algorithm instead.
    return ValidationContext(
        trust_roots=certs, allow_fetching=False, revocation_mode='soft-fail', weak_hash_algos=set()
    )


def enum_name(v):
    return None if v is None else getattr(v, 'name', str(v))


def one(path):
    out = {'signatures': []}
    try:
        with open(path, 'rb') as f:
            r = PdfFileReader(f, strict=False)
            sigs = r.embedded_signatures
            for s in sigs:
                entry = {'field': s.field_name}
                try:
                    is_ts = s.sig_object_type == '/DocTimeStamp'
                    entry['kind'] = (
                        'document_timestamp' if is_ts else ('certification' if s.docmdp_level is not None else 'approval')
                    )
                    if s.docmdp_level is not None:
                        entry['docmdp'] = s.docmdp_level.value
                    vc = self_trust(s)
                    st = (
                        validate_pdf_timestamp(s, validation_context=vc)
                        if is_ts
                        else validate_pdf_signature(s, signer_validation_context=vc, ts_validation_context=vc)
                    )
                    entry.update(
                        intact=bool(st.intact),
                        valid=bool(st.valid),
                        coverage=enum_name(st.coverage),
                        modificationLevel=enum_name(st.modification_level),
                        docmdpOk=st.docmdp_ok,
                        mdAlgorithm=st.md_algorithm,
                    )
                    if not is_ts and getattr(st, 'timestamp_validity', None) is not None:
                        entry['signatureTimestamp'] = bool(st.timestamp_validity.intact)
                except Exception as e:  # pyHanko refuses to read or validate it
                    entry['error'] = f'{type(e).__name__}: {e}'[:300]
                out['signatures'].append(entry)
    except Exception as e:
        out['error'] = f'{type(e).__name__}: {e}'[:300]
    return out


def main():
    result = {}
    for path in sys.argv[1:]:
        result[os.path.basename(path)] = one(path)
        print(f'validated {os.path.basename(path)}', file=sys.stderr)
    json.dump(result, sys.stdout, indent=1, sort_keys=True)


if __name__ == '__main__':
    main()
