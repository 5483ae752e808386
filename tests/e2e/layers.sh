#!/bin/sh
# The layers of csrc/README hold: each C file and header includes only
# headers of its own layer or of the layers below it.  The table is read
# from csrc/README itself (the lines "  layer NAME: FILES"), so the README
# and this check cannot drift apart: a file the table does not name fails
# too.  Layer of a header: that of the .c of the same name (cmd.h is the
# commands', interp/internal.h the interpreter's).
. "$top_srcdir/tests/lib.sh"

README="$top_srcdir/csrc/README"
# "layer NAME: a.c b.c ..." with continuation lines indented deeper
awk '
	/^  layer [^:]*:/ { rank++; sub(/^  layer [^:]*:/, ""); cur = rank
		for (i = 1; i <= NF; i++) print cur, $i
		next
	}
	cur && /^                 / {
		for (i = 1; i <= NF; i++) print cur, $i
		next
	}
	{ cur = 0 }
' "$README" >"$T/table"
test -s "$T/table"; ok $? "csrc/README has the layer table"

# rank_of NAME: the layer (1 = top) of a source or header base name; a
# header x.h not named itself is in the layer of x.c
rank_of() {
	case $1 in
	*.h) r1=$(rank_of1 "$1"); [ -n "$r1" ] && { echo "$r1"; return; }; rank_of1 "${1%.h}.c" ;;
	*) rank_of1 "$1" ;;
	esac
}
rank_of1() {
	awk -v f="$1" '
		function glob(p, s) { gsub(/\./, "\\.", p); gsub(/\*/, ".*", p); return s ~ ("^" p "$") }
		{ if (glob($2, f)) { print $1; exit } }
	' "$T/table"
}

: >"$T/bad"
: >"$T/unnamed"
for src in "$top_srcdir"/csrc/*.c "$top_srcdir"/csrc/interp/*.c "$top_srcdir"/csrc/interp/*.h \
           "$top_srcdir"/include/ecg/*.h; do
	rel=${src#"$top_srcdir"/}
	case $rel in
	csrc/interp/*) own=interp/ ;;
	include/ecg/*) own=$(basename "$src") ;;
	*) own=$(basename "$src") ;;
	esac
	r=$(rank_of "$own")
	if [ -z "$r" ]; then echo "$rel" >>"$T/unnamed"; continue; fi
	grep -o '^#include "[^"]*"' "$src" | sed 's/^#include "//; s/"$//' |
	while IFS= read -r inc; do
		case $inc in
		config.h) continue ;;
		internal.h) dep=interp/ ;;
		ecg/*) dep=$(basename "$inc") ;;
		*) continue ;;
		esac
		d=$(rank_of "$dep")
		[ -z "$d" ] && { echo "$rel includes $inc, which no layer names" >>"$T/bad"; continue; }
		[ "$d" -lt "$r" ] && echo "$rel (layer $r) includes $inc (layer $d, above it)" >>"$T/bad"
	done
done
test ! -s "$T/unnamed"; ok $? "every file of csrc/ and include/ecg/ is in a layer"
sed 's/^/# not in the table: /' "$T/unnamed"
test ! -s "$T/bad"; ok $? "no file includes a header of a layer above its own"
sed 's/^/# /' "$T/bad"
done_testing
