#!/usr/bin/env python3
"""The layout harness: hlolayout against the installed Triton, on random
parameter sets for every layout family Triton has.

Run with the Python of a venv holding `triton` (differential/triton/ci.sh
makes them from requirements-*.txt):

  $VENV/bin/python differential/triton/layouts.py \\
      --hlolayout .build/bin/cli/hlolayout --per-family 500 --seed 1

For each case (layout_cases.py) Triton is asked twice (layout_oracle.py):
through its Gluon layout class (`to_linear_layout`) and through the TTGIR
text of a module that uses the layout (parsed and verified). hlolayout is
asked through `hlolayout triton check --batch`. Compared: the bases, the
attribute as Triton prints it, and refusals. One table per family; the exit
status is 1 when any difference is not one of DOCUMENTED below (each named
in docs/triton-checks.md; the version rules in docs/triton.md), 0 otherwise.
"""

import argparse
import collections
import dataclasses
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import layout_cases  # noqa: E402

# Differences that are not errors, each with the rule behind it.
DOCUMENTED = {
    "gluon_stricter":
        "Gluon's layout class refuses what the TTGIR attribute accepts (Python asserts "
        "such as instr_shape = (M, N, K) or version in [1, 4]; DistributedLinearLayout "
        "must cover its whole shape); hlolayout follows the TTGIR verifier",
    "not_in_this_triton":
        "this Triton does not know the layout kind (Triton 3.6.0 has no "
        "partitioned_shared or generic_linear); hlolayout reads it as the newest Triton does",
    "python_cannot_convert":
        "the attribute is valid but Triton's Python cannot return its LinearLayout "
        "(3.6.0: tensor memory; generic_linear at another shape; padded: "
        "Triton's toLinearLayout refuses padded layouts, the linear component is compared; "
        "amd_rotating_shared is read through memdesc_reshape, which refuses a layout "
        "that is not bijective)",
    "python_omits_in_dim":
        "Triton's Python object leaves out an in-dim hlolayout keeps (tensor memory's "
        "block, partitioned_shared's partition); the others are compared",
    "padded_linear_component":
        "Triton's toLinearLayout refuses padded layouts; their linear component "
        "(offsets before padding, as Triton parses it) is compared",
}


def api_of():
    """Which spellings the installed Triton has."""
    import dataclasses as dc
    import triton
    from triton.experimental.gluon.language import amd
    from triton.experimental.gluon.language.nvidia import blackwell
    from triton.experimental.gluon import language as ttgl
    wmma_fields = [f.name for f in dc.fields(amd.AMDWMMALayout)]
    tmem_fields = [f.name for f in dc.fields(blackwell.TensorMemoryLayout)]
    padded_fields = [f.name for f in dc.fields(ttgl.PaddedSharedLayout)]
    try:
        from triton.experimental.gluon.language.amd.cdna5 import PartitionedSharedLayout  # noqa: F401
        partitioned = True
    except ImportError:
        partitioned = False
    return {
        "version": triton.__version__,
        "wmma_bases": "warp_bases" in wmma_fields,
        "tmem_cga": "cga_layout" in tmem_fields,
        "partitioned": partitioned,
        "generic_linear": partitioned,  # both arrived after 3.6
        "padded_block_key": "cga_layout" if "cga_layout" in padded_fields else "block_bases",
    }


def triton_message(res):
    """Triton's own words for a refusal: the diagnostic after 'error: ', an
    LLVM fatal error, an assertion or the exception's text."""
    err = res.get("stderr") or ""
    m = re.search(r"error: (.*)", err)
    if m:
        return m.group(1).strip()
    m = re.search(r"LLVM ERROR: (.*)", err)
    if m:
        return m.group(1).strip()
    m = re.search(r"Assertion `(.*)' failed", err)
    if m:
        return m.group(1).strip()
    msg = res.get("message") or ""
    return re.sub(r"^\w+Error: ", "", msg).strip()


# Messages of Triton's Python path that say it cannot return the layout,
# not that the layout is wrong.
PYTHON_CANNOT = [
    "Expected input dimension 0 to be 'register'",
    "padded shared encoding has no linear layout",
    "unknown layout",
    "Unhandled encoding encountered",
    "LinearEncodingAttr requires a permutation matrix layout",
    "Unsupported layout in to_linear_layout",
    "After removing the zero bases the layout must be bijective",
]


# Rules where Triton 3.6.0 and the newest Triton differ: hlolayout follows
# the newest (the TTGIR text does not say which Triton wrote it).
VERSION_RULES = {
    "cga_permutation_3.6":
        "Triton 3.6.0 does not check that a CGA layout is a permutation matrix "
        "(two bases splitting the same bit); the newest refuses it",
    "two_ctas_needs_cga_3.6":
        "Triton 3.6.0 accepts twoCTAs = true on a tensor memory layout without a CTA "
        "split; the newest requires a CGA layout whose first basis is [1, 0]",
    "clip_repeated_bits_3.6":
        "Triton 3.6.0 zeroes one basis per halving when it clips a layout to one CTA's "
        "piece, so a swizzled layout repeating the clipped bit is refused (\"Basis must "
        "be less than the out-dim size\"); the newest zeroes every copy of it",
    "shared_linear_blocks_3.6":
        "Triton 3.6.0 reads a shared linear layout's offsets within one CTA's piece, so "
        "a block basis below an offset basis of the same dim is refused; the newest "
        "accepts any bijective layout",
    "tmem_block_n_clip_3.6":
        "Triton 3.6.0 requires a tensor memory memdesc of at least blockM x blockN per CTA; "
        "the newest clips blockN to the memdesc's last dim first (\"the allocation shape "
        "must be at least\")",
    "tmem_columns_3.6":
        "Triton 3.6.0 refuses a tensor memory allocation of more than 512 32-bit columns "
        "per CTA (\"nCol / (CTASplitM * CTASplitN) must be less than or equal to 512 * 32 / "
        "bitwidth\"); the newest leaves it to the allocator",
    "scales_multibuffer_3.6":
        "Triton 3.6.0 refuses a multi-buffered (rank 3) tensor memory scales memdesc "
        "(\"Scales don't currently support multibuffering\"); the newest refuses it with "
        "another message (\"tensor-memory scale descriptors must have rank 2\")",
}
DOCUMENTED.update(VERSION_RULES)
DOCUMENTED["padded_unknown_key"] = (
    "Triton reports an unknown key in a padded_shared attribute (\"Unexpected "
    "attribute\") but keeps the layout; hlolayout refuses it with the same message")


def version_rule(api, case, tt_refused, tt_message, lib):
    """The version difference behind a disagreement, or None."""
    if not api["version"].startswith("3.6"):
        return None
    err = lib.get("error") or ""
    if not tt_refused and "CGA encoding must be a permutation matrix" in err:
        return "cga_permutation_3.6"
    if not tt_refused and "twoCTAs layout requires the first CGALayout" in err:
        return "two_ctas_needs_cga_3.6"
    if tt_refused and lib.get("ok"):
        for text, rule in (("the allocation shape must be at least", "tmem_block_n_clip_3.6"),
                           ("nCol / (CTASplitM * CTASplitN)", "tmem_columns_3.6"),
                           ("Scales don't currently support multibuffering",
                            "scales_multibuffer_3.6")):
            if text in tt_message:
                return rule
    if tt_refused and lib.get("ok") and "Basis must be less than the out-dim size" in tt_message:
        if case["family"] == "shared_linear":
            return "shared_linear_blocks_3.6"
        return "clip_repeated_bits_3.6"
    return None


def python_cannot(res):
    text = (res.get("stderr") or "") + (res.get("message") or "")
    return any(p in text for p in PYTHON_CANNOT)


def compare_bases(triton_bases, lib_bases):
    """(same, omitted in-dims) comparing Triton's in-dims only."""
    if lib_bases is None:
        return False, []
    for k, v in triton_bases.items():
        if k == "block" and not v and k not in lib_bases:
            continue
        if lib_bases.get(k, []) != v:
            return False, []
    omitted = [k for k, v in lib_bases.items() if k not in triton_bases and v]
    return True, omitted


@dataclasses.dataclass
class Outcome:
    kind: str          # same | both_refuse | documented | version | DIFFERENT
    rule: str = ""     # the documented rule, or what differs
    message_match: bool = False


def classify(api, case, tri, lib):
    """Compares Triton's answers for a case with hlolayout's."""
    gl = tri.get("gluon")
    tt = tri["ttgir"]
    lib_ok = lib.get("ok", False)
    # Triton's verdict on the text: refused at parse/verify, or accepted.
    tt_refused = tt["status"] == "refused" and tt.get("stage") in (
        "parse", "verify", "abort", "timeout", "exception")
    if tt["status"] == "refused" and tt.get("stage") == "abort_after_parse":
        tt_refused = not python_cannot(tt)
    if tt_refused:
        msg = triton_message(tt)
        if "unknown attribute" in (tt.get("stderr") or ""):
            if lib_ok:
                return Outcome("documented", "not_in_this_triton")
            return Outcome("both_refuse", message_match=False)
        if lib_ok:
            rule = version_rule(api, case, True, msg, lib)
            if rule:
                return Outcome("version", rule)
            return Outcome("DIFFERENT", f"Triton refuses ({msg[:160]}), hlolayout accepts")
        return Outcome("both_refuse", message_match=bool(msg) and msg in (lib.get("error") or ""))
    # Triton accepts the text.
    if not lib_ok:
        rule = version_rule(api, case, False, "", lib)
        if rule:
            return Outcome("version", rule)
        if "Unexpected attribute" in (lib.get("error") or "") and \
                "Unexpected attribute" in (tt.get("stderr") or ""):
            return Outcome("documented", "padded_unknown_key")
        return Outcome("DIFFERENT", f"Triton accepts, hlolayout refuses ({(lib.get('error') or '')[:160]})")
    printed = tt.get("printed")
    if printed is not None and printed != lib.get("ttgir"):
        return Outcome("DIFFERENT", f"printed: Triton {printed} / hlolayout {lib.get('ttgir')}")
    rules = []
    partial = []  # what a 'same' compared less than all of
    bases = tt.get("bases")
    if bases is None:
        rules.append("python_cannot_convert")
    else:
        same, omitted = compare_bases(bases, lib.get("bases"))
        if not same:
            return Outcome("DIFFERENT", f"bases: Triton {json.dumps(bases)} / hlolayout "
                                        f"{json.dumps(lib.get('bases'))}")
        if omitted:
            partial.append("python_omits_in_dim")
        if tt.get("note") == "linear component":
            partial.append("padded_linear_component")
    if gl is not None:
        if gl["status"] == "ok" and gl.get("bases") is not None:
            same, omitted = compare_bases(gl["bases"], lib.get("bases"))
            if not same:
                return Outcome("DIFFERENT", f"Gluon bases: {json.dumps(gl['bases'])} / hlolayout "
                                            f"{json.dumps(lib.get('bases'))}")
        elif gl["status"] == "refused" and gl.get("stage") in ("python", "builder", "abort"):
            rules.append("gluon_stricter")
        elif gl["status"] == "refused" and python_cannot(gl):
            if bases is None:
                rules.append("python_cannot_convert")
        elif gl["status"] == "refused":
            return Outcome("DIFFERENT", f"Gluon refuses at {gl.get('stage')} "
                                        f"({triton_message(gl)[:160]}), the TTGIR text reads")
    if rules:
        return Outcome("documented", ",".join(sorted(set(rules))))
    return Outcome("same", ",".join(partial))


def run_library(binary, cases):
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        for c in cases:
            f.write(json.dumps({
                "layout": c["ttgir_text"], "shape": c["shape"], "element": c["elem"],
                "memdesc": c["space"] != "distributed",
                "threads_per_warp": c["module"]["threads_per_warp"],
                "num_warps": c["module"]["num_warps"], "num_ctas": c["module"]["num_ctas"],
            }) + "\n")
        path = f.name
    try:
        r = subprocess.run([binary, "triton", "check", "--batch", path], capture_output=True, text=True)
    finally:
        os.unlink(path)
    if r.returncode != 0:
        sys.exit(f"layouts: hlolayout failed: {r.stderr.strip()}")
    out = [json.loads(l) for l in r.stdout.splitlines() if l.strip()]
    if len(out) != len(cases):
        sys.exit(f"layouts: hlolayout answered {len(out)} of {len(cases)} cases")
    return out


def answer_cases(path):
    """--answer-cases: this Triton's answers to the cases of a JSON lines
    file, for another venv's run: its API first, then one line per case."""
    import layout_oracle  # imports triton
    print(json.dumps({"api": api_of()}), flush=True)
    with open(path) as f:
        for line in f:
            if line.strip():
                print(json.dumps(layout_oracle.evaluate(json.loads(line))), flush=True)
    return 0


def ask_other(python, cases):
    """The other Triton's API and its answers to `cases` (its venv's
    `python` runs this file with --answer-cases)."""
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        for c in cases:
            f.write(json.dumps(c) + "\n")
        path = f.name
    try:
        r = subprocess.run([python, os.path.abspath(__file__), "--answer-cases", path],
                           capture_output=True, text=True)
    finally:
        os.unlink(path)
    lines = [json.loads(l) for l in r.stdout.splitlines() if l.strip()]
    if r.returncode != 0 or len(lines) != len(cases) + 1:
        sys.exit(f"layouts: the other Triton ({python}) answered {max(0, len(lines) - 1)} of "
                 f"{len(cases)} cases: {r.stderr.strip()[-500:]}")
    return lines[0]["api"], lines[1:]


def check_version_cases(binary, other_python, api, items):
    """Each case a version rule explains, asked of the other Triton with the
    same parameters (in its spelling, layout_cases.respell_newest): the rule
    holds when that Triton agrees with hlolayout there (the same bases, or
    both refuse with the same message). Returns one (verdict, why) per item:
    verdict "confirmed", "DIFFERENT" or "unchecked"."""
    verdicts = [None] * len(items)
    asked, asked_at = [], []
    newest = not api["version"].startswith("3.6")
    for i, (case, lib) in enumerate(items):
        other = None if newest else layout_cases.respell_newest(case)
        if other is None:
            other = json.loads(json.dumps(case))
            other.pop("ttgir_text", None)
            other.pop("outcome", None)
            other["ttgir_text"] = case.get("ttgir_text", case["text"])
        else:
            other["ttgir_text"] = other["text"]
        asked.append(other)
        asked_at.append(i)
    if not asked:
        return verdicts
    other_api, answers = ask_other(other_python, asked)
    for other, res in zip(asked, answers):
        other["ttgir_text"] = res.get("ttgir_text", other["text"])
    lib_other = run_library(binary, asked)
    for i, other, res, lib2 in zip(asked_at, asked, answers, lib_other):
        case, lib = items[i]
        # The two spellings of the same parameters must read alike in
        # hlolayout; bases in another register order (WMMA's tilesPerWarp,
        # which ctaLayout cannot order the same way) make no check.
        if other["text"] != case["text"] and bool(lib.get("ok")) != bool(lib2.get("ok")):
            verdicts[i] = ("DIFFERENT", f"hlolayout answers the two spellings differently: "
                                        f"{case['text']} {'accepted' if lib.get('ok') else 'refused'}, "
                                        f"{other['text']} {'accepted' if lib2.get('ok') else 'refused'}")
            continue
        if other["text"] != case["text"] and lib.get("ok") and lib.get("bases") != lib2.get("bases"):
            verdicts[i] = ("unchecked", f"no spelling of the same layout for Triton "
                                        f"{other_api['version']}: {other['text']}")
            continue
        o = classify(other_api, other, res, lib2)
        if o.kind == "same" or (o.kind == "both_refuse" and o.message_match) or \
                (o.kind == "documented" and not any(r in VERSION_RULES for r in o.rule.split(","))):
            verdicts[i] = ("confirmed", f"Triton {other_api['version']}: {o.kind}")
        else:
            why = o.rule if o.kind != "both_refuse" else "both refuse, another message: " + \
                triton_message(res["ttgir"])[:160]
            verdicts[i] = ("DIFFERENT", f"Triton {other_api['version']} does not agree with "
                                        f"hlolayout either ({o.kind}: {why})")
    return verdicts


def generate(families, per_family, seed, api):
    cases = []
    for fam in families:
        rng = random.Random(f"{seed}:{fam}")
        seen = set()
        tries = 0
        while len([c for c in cases if c["family"] == fam]) < per_family and tries < per_family * 20:
            tries += 1
            c = layout_cases.generate(fam, rng, api)
            key = (c["text"], tuple(c["shape"]), c["elem"], json.dumps(c["module"], sort_keys=True))
            if key in seen:
                continue
            seen.add(key)
            cases.append(c)
    return cases


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hlolayout", default=os.path.join(
        os.path.dirname(__file__), "..", "..", ".build", "bin", "cli", "hlolayout"))
    ap.add_argument("--seed", default="1", help="the random seed (any text)")
    ap.add_argument("--per-family", type=int, default=500)
    ap.add_argument("--families", default=",".join(layout_cases.FAMILIES))
    ap.add_argument("--show", type=int, default=5, help="differences shown per family")
    ap.add_argument("--json", help="write every case and both answers here")
    ap.add_argument("--other-python", help="the Python of a venv holding the other Triton "
                    "release: each case a version rule explains is asked of it, which must "
                    "agree with hlolayout (without it such cases fail the run)")
    ap.add_argument("--answer-cases", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.answer_cases:
        return answer_cases(args.answer_cases)

    import layout_oracle  # imports triton
    api = api_of()
    families = [f for f in args.families.split(",") if f]
    for f in families:
        if f not in layout_cases.FAMILIES:
            sys.exit(f"layouts: unknown family {f} (known: {', '.join(layout_cases.FAMILIES)})")
    start = time.time()
    cases = generate(families, args.per_family, args.seed, api)
    answers = []
    for i, c in enumerate(cases):
        res = layout_oracle.evaluate(c)
        # hlolayout reads the attribute the TTGIR path read: Triton's own
        # printing of the Gluon object when it has one.
        c["ttgir_text"] = res["ttgir_text"]
        answers.append(res)
        if (i + 1) % 200 == 0:
            print(f"layouts: {i + 1}/{len(cases)} cases asked of Triton {api['version']} "
                  f"({time.time() - start:.0f} s)", file=sys.stderr)
    lib = run_library(os.path.abspath(args.hlolayout), cases)

    table = collections.OrderedDict((f, collections.Counter()) for f in families)
    shown = collections.Counter()
    undocumented = 0
    doc_rules = collections.Counter()
    partial_rules = collections.Counter()
    outcomes = [classify(api, c, tri, l) for c, tri, l in zip(cases, answers, lib)]
    version_at = [i for i, o in enumerate(outcomes) if o.kind == "version"]
    version_verdicts = collections.Counter()
    if version_at and args.other_python:
        verdicts = check_version_cases(os.path.abspath(args.hlolayout), args.other_python, api,
                                       [(cases[i], lib[i]) for i in version_at])
    else:
        verdicts = [("unchecked", "no --other-python: not asked of the other Triton")] * len(version_at)
    for i, (verdict, why) in zip(version_at, verdicts):
        version_verdicts[verdict] += 1
        cases[i]["version_check"] = {"verdict": verdict, "why": why}
        if verdict == "DIFFERENT" or (verdict == "unchecked" and not args.other_python):
            outcomes[i] = Outcome("DIFFERENT", f"version rule {outcomes[i].rule}: {why}")
        elif verdict == "unchecked":
            print(f"UNCHECKED {cases[i]['family']} {outcomes[i].rule}: {why}", file=sys.stderr)
    for c, tri, l, o in zip(cases, answers, lib, outcomes):
        t = table[c["family"]]
        t["cases"] += 1
        t[o.kind] += 1
        if o.kind == "both_refuse":
            t["msg"] += o.message_match
        if o.kind in ("documented", "version"):
            for r in o.rule.split(","):
                doc_rules[(c["family"], r)] += 1
        if o.kind == "same" and o.rule:
            for r in o.rule.split(","):
                partial_rules[(c["family"], r)] += 1
        if o.kind == "DIFFERENT":
            undocumented += 1
            if shown[c["family"]] < args.show:
                shown[c["family"]] += 1
                print(f"DIFFERENT {c['family']} {c['intent']}: {o.rule}\n  {c['ttgir_text']} "
                      f"shape {c['shape']} {c['elem']} {c['space']} module {c['module']}", file=sys.stderr)
        c["outcome"] = dataclasses.asdict(o)
    print(f"Triton {api['version']} against hlolayout, seed {args.seed!r}, "
          f"{len(cases)} cases ({time.time() - start:.0f} s)")
    head = (f"{'family':<20}{'cases':>7}{'same':>7}{'refused':>9}{'(msg =)':>9}{'documented':>12}"
            f"{'version':>9}{'DIFFERENT':>11}")
    print(head)
    print("-" * len(head))
    total = collections.Counter()
    for fam, t in table.items():
        total.update(t)
        print(f"{fam:<20}{t['cases']:>7}{t['same']:>7}{t['both_refuse']:>9}{t['msg']:>9}"
              f"{t['documented']:>12}{t['version']:>9}{t['DIFFERENT']:>11}")
    print("-" * len(head))
    print(f"{'total':<20}{total['cases']:>7}{total['same']:>7}{total['both_refuse']:>9}{total['msg']:>9}"
          f"{total['documented']:>12}{total['version']:>9}{total['DIFFERENT']:>11}")
    print("version: explained by a version rule (not counted as agreement); each asked of the "
          "other Triton with the same parameters: " +
          (", ".join(f"{n} {v}" for v, n in sorted(version_verdicts.items())) or "none"))
    if partial_rules:
        print("'same' on what Triton shows:")
        for (fam, rule), n in sorted(partial_rules.items()):
            print(f"  {fam:<20}{rule:<26}{n:>6}  {DOCUMENTED[rule]}")
    if doc_rules:
        print("documented and version-rule differences (docs/triton.md, \"Triton versions\"):")
        for (fam, rule), n in sorted(doc_rules.items()):
            print(f"  {fam:<20}{rule:<26}{n:>6}  {DOCUMENTED[rule]}")
    if args.json:
        with open(args.json, "w") as f:
            for c, tri, l in zip(cases, answers, lib):
                f.write(json.dumps({"case": c, "triton": tri, "hlolayout": l}) + "\n")
    print(f"undocumented differences: {undocumented}")
    return 1 if undocumented else 0


if __name__ == "__main__":
    sys.exit(main())
