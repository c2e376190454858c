#!/bin/sh
# mutool sign and qpdf cases. Needs pyhanko_cases.py to have run first with the same WORK folder
# (it leaves there two-fields.pdf, an unsigned PDF with two empty visible signature fields, and
# alice.p12 / bob.p12, password "outside", issued by its throwaway CA).
set -eu
WORK=${1:-/tmp/outside-work}
FILES=$(cd "$(dirname "$0")/../files" && pwd)
cd "$WORK"

# mutool numbers the signature fields by object: the first listed is MutoolOne.
set -- $(mutool sign two-fields.pdf | sed -n 's/^ *\([0-9][0-9]*\):.*/\1/p')
ONE=$1
TWO=$2
mutool sign -s alice.p12 -P outside -o "$FILES/mutool-one-visible.pdf" two-fields.pdf "$ONE"
mutool sign -s bob.p12 -P outside -o "$FILES/mutool-two-visible.pdf" "$FILES/mutool-one-visible.pdf" "$TWO"

# qpdf rewrites a signed file: objects renumbered and moved, no longer an incremental update of
# the signed bytes, so the /ByteRange no longer covers what was signed.
qpdf "$FILES/ph-approval-invisible.pdf" "$FILES/qpdf-rewritten.pdf"
qpdf --qdf "$FILES/ph-approval-invisible.pdf" "$FILES/qpdf-qdf.pdf"
