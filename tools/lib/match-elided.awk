# tools/lib/match-elided.awk
# Compares an expected transcript with the actual output when the expected
# one elides: a line that is exactly `...` stands for any number of lines
# (none too), and a line ending in " ..." matches any line that starts with
# what comes before it. Usage: awk -f match-elided.awk EXPECTED ACTUAL; exit 0 when
# they match. The pieces between `...` lines must appear in order; the first
# is anchored at the start and the last at the end (unless a `...` is there),
# and each middle piece is matched at its first place, which is enough: a
# later place could only leave less room for the pieces after it.
FNR == 1 { file++ }
file == 1 { ex[++ne] = $0; next }
{ act[++na] = $0 }
function miss(s, pos, anchored,    d) { # report the piece at expected line s, not found from actual line pos
    if (anchored) {
        d = first_diff(s, pos)
        if (d == 0) d = s
        printf "expected line %d (\"%s\") is \"%s\" in the output (its line %d)\n", d, ex[d], act[pos + d - s], pos + d - s > "/dev/stderr"
    } else {
        printf "the expected lines from line %d (\"%s\") are not in the output from its line %d on\n", s, ex[s], pos > "/dev/stderr"
    }
    exit 1
}
# an expected line matches an actual one when it is the same, or when it ends in
# " ..." and the actual line starts with what comes before (`fingerprint ...`)
function line_ok(e, a) {
    if (e == a) return 1
    if (length(e) > 4 && substr(e, length(e) - 3) == " ...") return substr(a, 1, length(e) - 3) == substr(e, 1, length(e) - 3)
    return 0
}
function piece_at(s, e, pos,    k) { # does ex[s..e] match act from pos?
    if (pos + (e - s) > na) return 0
    for (k = 0; k <= e - s; k++) if (!line_ok(ex[s + k], act[pos + k])) return 0
    return 1
}
# the first line of the piece from s that differs when it is put at pos (0: none)
function first_diff(s, pos,    k) {
    for (k = 0; s + k <= ne && ex[s + k] != "..."; k++) if (pos + k > na || !line_ok(ex[s + k], act[pos + k])) return s + k
    return 0
}
END {
    # split the expected lines into pieces at the `...` lines
    np = 0; start = 1
    for (i = 1; i <= ne + 1; i++) {
        if (i == ne + 1 || ex[i] == "...") {
            np++; ps[np] = start; pe[np] = i - 1; start = i + 1
        }
    }
    if (np == 1) {
        if (ne == na && piece_at(1, ne, 1)) exit 0
        if (first_diff(1, 1) == 0) {
            printf "the output has %d lines, %d expected\n", na, ne > "/dev/stderr"
            exit 1
        }
        miss(1, 1, 1)
    }
    # the first piece (before the first `...`) is anchored at line 1
    pos = 1
    if (pe[1] >= ps[1]) { if (!piece_at(ps[1], pe[1], 1)) miss(ps[1], 1, 1); pos = pe[1] - ps[1] + 2 }
    # the last piece (after the last `...`) is anchored at the end
    last_len = pe[np] - ps[np] + 1
    end_limit = na - last_len + 1
    if (last_len > 0 && (end_limit < pos || !piece_at(ps[np], pe[np], end_limit))) miss(ps[np], end_limit < pos ? pos : end_limit, end_limit >= pos)
    for (p = 2; p < np; p++) {
        len = pe[p] - ps[p] + 1
        if (len <= 0) continue
        found = 0
        for (q = pos; q + len - 1 < end_limit || (last_len == 0 && q + len - 1 <= na); q++) {
            if (piece_at(ps[p], pe[p], q)) { found = 1; pos = q + len; break }
        }
        if (!found) miss(ps[p], pos, 0)
    }
    exit 0
}
