"""pyHanko's incremental updates of this service's own seals (certification, DocMDP P=1), read
from the folder esign-seals.ts wrote (default /tmp/outside-work): files ../files/esign-*.pdf."""

import os
import sys

from pyhanko_cases import VISIBLE, add_annotation, change_page_content, sign, timestamp_with_dss
from common import save

# The contract's fee line: "Fee: EUR 4,000" at x 60, y 700 on page 1 (packages/pdf/test/corpus/templates.ts).
FEE_Y = 700
FEE_RECT = [55, 692, 330, 718]


def main():
    work = sys.argv[1] if len(sys.argv) > 1 else '/tmp/outside-work'
    for level in ('B-B', 'B-LTA'):
        with open(os.path.join(work, f'esign-{level}.pdf'), 'rb') as f:
            sealed = f.read()
        save(f'esign-{level}.pdf', sealed)
        save(f'esign-{level}-ph-annotation-over-fee.pdf', add_annotation(sealed, over_fee=True, fee_rect=FEE_RECT))
        save(f'esign-{level}-ph-visible-signature.pdf', sign(sealed, 'bob', field='Late', box=VISIBLE, force=True))
        save(f'esign-{level}-ph-lta-update.pdf', timestamp_with_dss(sealed))
        save(f'esign-{level}-ph-content-change.pdf', change_page_content(sealed, fee_y=FEE_Y))


if __name__ == '__main__':
    main()
