#!/usr/bin/env python3
"""Freezes Triton's answers into the repository's test data.

    python3 differential/triton/export_testdata.py HARNESS.jsonl OUT.jsonl
    python3 differential/triton/export_testdata.py --more-layouts MORE.jsonl OUT.jsonl

HARNESS.jsonl is `layouts.py --json` output: every case with Triton's and
hlolayout's answers. Written (one JSON object per line) are the cases where
hlolayout agreed with Triton (bases equal, or both refused); cases of a
documented difference are left out (their count is printed), so that the
test (//triton:LayoutAnswersDataTest) checks Triton's answers only:

  family, layout (the attribute as Triton printed it), shape, element,
  memdesc, threads_per_warp, num_warps, num_ctas
  want:    {printed, bases: {in-dim: bases}} (Triton's in-dims only)
  refused: Triton's message

--more-layouts converts the answers Triton 3.6.0 computed for issue 36's
kinds (a JSON line per case with Gluon arguments, the TTGIR text, its
parse and Triton's C++ LinearLayout of tensor memory) into the same form:
the TTGIR verdict, the bases of the parsed attribute (distributed), the
C++ layout (tensor memory) or the parsed linear component (padded). Cases
of a kind 3.6.0 lacks (partitioned_shared) or of a rule 3.6.0 and the
newest Triton differ on are left out: twoCTAs without a CTA split, a
padded layout with an unknown key, multi-buffered scales, a tensor memory
allocation narrower than blockN (the newest clips blockN to it) or over
3.6.0's column limit.
"""

import json
import re
import sys


def triton_message(res):
    err = res.get("stderr") or ""
    for pattern in (r"error: (.*)", r"LLVM ERROR: (.*)", r"Assertion `(.*)' failed"):
        m = re.search(pattern, err)
        if m:
            return m.group(1).strip()
    return re.sub(r"^\w+Error: ", "", res.get("message") or "").strip()


def harness_rows(path):
    kept, dropped = [], 0
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            c, tri = r["case"], r["triton"]
            kind = c["outcome"]["kind"]
            if kind not in ("same", "both_refuse"):
                dropped += 1
                continue
            row = {"family": c["family"], "layout": c["ttgir_text"], "shape": c["shape"],
                   "element": c["elem"], "memdesc": c["space"] != "distributed",
                   "threads_per_warp": c["module"]["threads_per_warp"],
                   "num_warps": c["module"]["num_warps"], "num_ctas": c["module"]["num_ctas"]}
            tt = tri["ttgir"]
            if kind == "same":
                row["want"] = {"printed": tt["printed"], "bases": tt["bases"]}
            else:
                row["refused"] = triton_message(tt)
            kept.append(row)
    return kept, dropped


def more_layouts_rows(path):
    kept, dropped = [], 0
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            attr = r["attr"]
            if r["kind"] == "partitioned_shared" or (
                    "twoCTAs = true" in attr and "CTASplit" not in attr):
                dropped += 1
                continue
            m = r["module_attrs"]
            row = {"family": r["kind"], "layout": attr, "shape": r["shape"], "element": r["elem"],
                   "memdesc": r["space"] != "distributed",
                   "threads_per_warp": m["threads_per_warp"], "num_warps": m["num_warps"],
                   "num_ctas": m["num_ctas"]}
            parse = r["parse"]
            msg = (parse.get("stderr") or "") + (r.get("stderr") or "")
            block_m = re.search(r"blockM = (\d+)", attr)
            n_clipped = (block_m is not None and "CTASplit" not in attr and
                         "the allocation shape must be at least" in msg and
                         r["shape"][-2] >= int(block_m.group(1)))
            if r.get("rule") == "padded_unexpected_key" or \
                    "Scales don't currently support multibuffering" in msg or n_clipped or (
                    "CTASplit" not in attr and "nCol / (CTASplitM * CTASplitN)" in msg):
                # Triton 3.6.0 rules the newest Triton does not have (see
                # docs/triton.md, "Triton versions").
                dropped += 1
                continue
            if parse["status"] != "ok":
                msg = (parse.get("stderr") or "")
                mm = re.search(r"error: (.*)", msg)
                row["refused"] = (mm.group(1) if mm else msg).strip()
                kept.append(row)
                continue
            want = {"printed": parse["printed_attr"]}
            ll, raw = parse.get("ll"), r.get("raw_ll")
            rt = parse.get("roundtrip") or {}
            abort = " | ".join(x for x in (parse.get("ll_stderr"), r.get("stderr"),
                                           r.get("error")) if x)
            if "shape.size() == 2" in (parse.get("ll_stderr") or "") + (r.get("stderr") or ""):
                # Asked for a multi-buffered memdesc's whole shape, which
                # Triton's toLinearLayout of tensor memory does not take.
                dropped += 1
                continue
            if not (ll and "reg_bases" in ll) and not (raw and "row_bases" in raw) and \
                    rt.get("cls") != "PaddedSharedLayout" and abort and \
                    "Expected input dimension 0 to be 'register'" not in abort and \
                    r.get("stage") != "gluon":
                # The attribute reads but Triton cannot convert it.
                m = re.search(r"Assertion `(.*)' failed", abort)
                row["refused"] = (m.group(1) if m else abort.split(" | ")[0]).strip()
                kept.append(row)
                continue
            if ll and "reg_bases" in ll:
                want["bases"] = {"register": ll["reg_bases"], "lane": ll["lane_bases"],
                                 "warp": ll["warp_bases"], "block": ll["block_bases"]}
            elif raw and "row_bases" in raw:
                want["bases"] = {"row": raw["row_bases"], "col": raw["col_bases"]}
            elif rt.get("cls") == "PaddedSharedLayout":
                want["bases"] = {"offset": rt["offset_bases"], "block": rt["block_bases"]}
            row["want"] = want
            kept.append(row)
    return kept, dropped


def main(argv):
    more = "--more-layouts" in argv
    args = [a for a in argv[1:] if not a.startswith("--")]
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    rows, dropped = (more_layouts_rows if more else harness_rows)(args[0])
    with open(args[1], "w") as f:
        for row in rows:
            f.write(json.dumps(row, separators=(",", ":")) + "\n")
    print(f"{len(rows)} rows written, {dropped} left out", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
