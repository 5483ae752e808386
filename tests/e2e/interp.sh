#!/bin/sh
# The interpreter's Python semantics as they show in the records.
#
# Method resolution order: Python's C3.  For class A(B, C), B(D, E),
# C(D, F) the MRO is A B C D E F; a depth-first order (A B E C D F) calls
# the wrong method of a diamond.  An inconsistent hierarchy (Python's
# TypeError) does not stop the run: it is read in the depth-first order
# and noted in `unresolved`.
. "$top_srcdir/tests/lib.sh"

R="$T/diamond"
mkrepo "$R"
cat >"$R/train.py" <<'PY'
import torch
import torch.nn as nn


class D(nn.Module):
    def __init__(self):
        super().__init__()
        self.d = nn.ReLU()


class E(nn.Module):
    def __init__(self):
        super().__init__()
        self.e = nn.GELU()

    def make(self):
        return nn.Linear(4, 4)


class F(nn.Module):
    pass


class B(D, E):
    pass


class C(D, F):
    def make(self):
        return nn.Conv1d(4, 4, 1)


class A(B, C):
    def __init__(self):
        super().__init__()
        self.layer = self.make()

    def forward(self, x):
        return self.layer(x)


model = A()
y = model(torch.randn(2, 4, 8))
PY
commit "$R" "diamond"
run_ecg extract --repo "$R" --entry train.py -q --out "$T/o"
is "$rc" 6 "extract exits 6 (records written; the script has no step)"
G="$T/o/computation_graph.json"
mods() { json "$G" "[(m['id'], m['class']) for m in d['modules'] if m['id'] in ($1)]"; }
is "$(mods "'layer',")" "[('layer', 'torch.nn.Conv1d')]" \
	"A(B, C), B(D, E), C(D, F): self.make() is C.make (C3: A B C D E F), not E.make"
is "$(mods "'d', 'e'")" "[('e', 'torch.nn.GELU'), ('d', 'torch.nn.ReLU')]" \
	"cooperative __init__s run in MRO order: D's super().__init__() is E's, which registers e before D registers d"

# An order C3 rejects: X(P, Q) with P(Q).  Python raises TypeError; ecg
# reads on in the depth-first order and says so.
R2="$T/bad"
mkrepo "$R2"
cat >"$R2/train.py" <<'PY'
import torch
import torch.nn as nn


class Q(nn.Module):
    def make(self):
        return nn.Linear(4, 4)


class P(Q):
    pass


class X(Q, P):
    def __init__(self):
        super().__init__()
        self.layer = self.make()

    def forward(self, x):
        return self.layer(x)


model = X()
y = model(torch.randn(2, 4))
PY
commit "$R2" "inconsistent"
run_ecg extract --repo "$R2" --entry train.py -q --out "$T/o2"
is "$rc" 6 "an inconsistent hierarchy: extract exits 6 (records written; no step)"
is "$(json "$T/o2/computation_graph.json" "[m['class'] for m in d['modules'] if m['id'] == 'layer']")" \
	"['torch.nn.Linear']" "X(Q, P), P(Q): read on in the depth-first order"
is "$(json "$T/o2/computation_graph.json" "[u['what'] for u in d['unresolved'] if 'resolution order' in u['what']]")" \
	"['the method resolution order of class X']" "and the inconsistent order is in unresolved"

done_testing
