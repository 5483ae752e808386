#!/bin/sh
# ecg render: one self-contained HTML page from the example job's records.
# Checked as a parser sees it (well-formed, no script, no network, the
# tree, the lanes, the tables), and -- when Debian's chromium is installed
# -- as a browser shows it: a headless screenshot, no console error.
. "$top_srcdir/tests/lib.sh"

R="$T/job"
mkrepo "$R"
cp "$top_srcdir/examples/minigpt/model.py" "$top_srcdir/examples/minigpt/data.py" \
	"$top_srcdir/examples/minigpt/train.py" "$R/"
chmod -R u+w "$R"
commit "$R" "the example job"
run_ecg extract --repo "$R" --entry train.py -q
is "$rc" 0 "extract the example job"

run_ecg render --records "$R/records" -o "$T/report.html"
is "$rc" 0 "render: exit 0"
ok "$(test -s "$T/report.html"; echo $?)" "  the page is written"

"$TEST_PYTHON" -I -S - "$T/report.html" >"$T/check.out" 2>&1 <<'PY'
import sys
from html.parser import HTMLParser

VOID = {"meta", "br", "line", "rect", "img", "input", "link"}
text = open(sys.argv[1], encoding="utf-8").read()
problems = []


class P(HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack, self.count = [], {}

    def handle_starttag(self, tag, attrs):
        self.count[tag] = self.count.get(tag, 0) + 1
        for k, v in attrs:
            if k in ("src", "href") and v and ("://" in v or v.startswith("//")):
                problems.append("a reference to the network: %s=%s" % (k, v))
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.count[tag] = self.count.get(tag, 0) + 1

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            problems.append("</%s> closes <%s>" % (tag, self.stack[-1] if self.stack else "nothing"))
        else:
            self.stack.pop()


p = P()
p.feed(text)
if p.stack:
    problems.append("left open: %s" % p.stack)
if p.count.get("script"):
    problems.append("a script")
for tag, at_least in (("details", 15), ("svg", 1), ("table", 4)):
    if p.count.get(tag, 0) < at_least:
        problems.append("%d <%s>, want at least %d" % (p.count.get(tag, 0), tag, at_least))
for needle in ("host", "compute stream", "communication stream", "data loader", "&times;6",
               "model.py:Block.forward:", "n_layer", "all_reduce", "every micro-step"):
    if needle not in text:
        problems.append("missing: %s" % needle)
print("\n".join(problems) or "ok")
sys.exit(1 if problems else 0)
PY
st=$?
ok "$st" "the page is well-formed HTML with no script and no network reference, holding the tree (repeat badges), the four lanes, the tables and the config"
[ "$st" -eq 0 ] || sed 's/^/#   /' "$T/check.out"

run_ecg render --records "$R/records"
is "$rc" 2 "no -o: exit 2"
run_ecg render --records "$T/nowhere" -o "$T/x.html"
is "$rc" 3 "no records: exit 3"

# As a browser shows it (Debian's chromium, when installed).
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROMIUM" ] || [ "$ECG_ENABLE_VALGRIND" = yes ]; then
	echo "ok $((tap_n + 1)) # SKIP chromium is not installed (apt-get install chromium): no screenshot taken"
	tap_n=$((tap_n + 1))
else
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--window-size=1400,1800 --enable-logging=stderr --v=0 \
		--screenshot="$T/report.png" "file://$T/report.html" >"$T/chromium.out" 2>"$T/chromium.err"
	ok "$(test -s "$T/report.png"; echo $?)" "chromium renders the page (screenshot taken)"
	grep -i "CONSOLE" "$T/chromium.err" | grep -iq "error"
	ok $((! $?)) "  with no console error"
fi

done_testing
