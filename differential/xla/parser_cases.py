"""XLA's own HLO text parser against hlolayout's reader, case by case.

Every module of tests/data/xla_parser_cases.txt (its format: the header of
tests/data/xla_parser_cases.txt) goes to XLA's parser as jaxlib exposes it
(`jaxlib._hlo.hlo_module_from_text`: parse only, no verifier, no compile)
and to `hlolayout report --json --summary -`. The two must accept and refuse
the same modules, and where both accept, count the same computations and
instructions. A difference is documented when docs/hlo-text.md lists the
case in its table of deliberate differences (a row starting with the case's
name in backquotes).
"""

import concurrent.futures
import json
import re
import subprocess
import sys


def load_cases(path):
  """(name, kind, text) of every case, as tests/xla_parser_cases_test.cc reads them."""
  cases = []
  with open(path, "rb") as f:
    data = f.read().decode("utf-8")
  current = None
  for line in data.split("\n"):
    if line.startswith("=== "):
      words = line.split(" ")
      current = [words[2] if len(words) > 2 else "", words[1], []]
      cases.append(current)
      continue
    if current is None or line.startswith("# xla:"):
      continue
    current[2].append(line + "\n")
  return [(name, kind, "".join(text)) for name, kind, text in cases]


def documented_cases(doc_path):
  """Case names listed in docs/hlo-text.md's table of deliberate differences."""
  names = set()
  with open(doc_path) as f:
    for line in f:
      m = re.match(r"^\| `([A-Za-z0-9_]+)` \|", line)
      if m:
        names.add(m.group(1))
  return names


def _xla_parse(text):
  """(accepted, message, computations, instructions) from XLA's parser."""
  from jaxlib import _hlo  # pylint: disable=import-outside-toplevel
  try:
    module = _hlo.hlo_module_from_text(text)
  except Exception as e:  # pylint: disable=broad-except
    message = str(e).replace("\n", " ")
    message = re.sub(r"^INVALID_ARGUMENT: Syntax error when trying to parse the "
                     r"text as a HloModule:\s*", "", message)
    return [False, message, None, None]
  computations = module.computations()
  return [True, "", len(computations), sum(len(c.instructions()) for c in computations)]


def _worker():
  """Parses the JSON list of texts on stdin, one JSON answer per line."""
  for text in json.load(sys.stdin):
    print(json.dumps(_xla_parse(text)), flush=True)


def xla_parse_all(texts):
  """XLA's answer for each text. XLA's parser aborts the process on some
  inputs (a failed CHECK): those get (False, "CRASH: ...") and the parsing
  goes on in a new process from the next text."""
  answers = []
  while len(answers) < len(texts):
    rest = texts[len(answers):]
    p = subprocess.run([sys.executable, __file__, "--worker"], input=json.dumps(rest),
                       capture_output=True, text=True, check=False)
    for line in p.stdout.splitlines():
      answers.append(json.loads(line))
    if p.returncode != 0 and len(answers) < len(texts):
      check = [l for l in p.stderr.splitlines() if "Check failed" in l]
      reason = check[0].split("] ", 1)[-1] if check else f"exit {p.returncode}"
      answers.append([False, f"CRASH: {reason[:200]}", None, None])
  return answers


def why(difference, xla_message):
  """The deliberate difference a row is an instance of (docs/hlo-text.md)."""
  if "Unknown opcode" in xla_message:
    return "unknown opcode: read with a warning"
  if difference.startswith("computations/instructions"):
    return "async sugar read as written"
  if xla_message.startswith("CRASH"):
    return "newer syntax than this XLA (which crashes on it)"
  return "newer syntax than this XLA"


def short(message):
  """XLA's message without its echo of the source line."""
  m = re.match(r"was parsing (\d+:\d+): error: (.*)", message)
  if m:
    message = f"{m.group(1)}: {m.group(2)}"
  message = re.split(r"\. Allowed attributes:|   ", message)[0]
  return message[:90].replace("|", "\\|")


def markdown(rows, details):
  """The table of docs/hlo-text.md: one row per differing case."""
  lines = ["| case | XLA (jaxlib %s) | hlolayout | why |" % _jaxlib_version(),
           "|---|---|---|---|"]
  for (name, difference, _), (xla, ours) in zip(rows, details):
    if not difference:
      continue
    xla_text = (f"reads it: {xla[2]} computations, {xla[3]} instructions" if xla[0]
                else "refuses: `" + short(xla[1]) + "`")
    ours_text = (f"reads it: {ours[2]} computations, {ours[3]} instructions" if ours[0]
                 else "refuses: " + ours[1][:110].replace("|", "\\|"))
    lines.append(f"| `{name}` | {xla_text} | {ours_text} | {why(difference, xla[1])} |")
  return "\n".join(lines)


def _jaxlib_version():
  import jaxlib  # pylint: disable=import-outside-toplevel
  return jaxlib.__version__


def ours_parse(hlolayout, text):
  p = subprocess.run([hlolayout, "report", "--json", "--summary", "-"], input=text,
                     capture_output=True, text=True, check=False)
  if p.returncode != 0:
    first = (p.stderr.strip().splitlines() or ["exit %d" % p.returncode])[0]
    return False, first.removeprefix("-:").removeprefix("<stdin>:"), None, None
  modules = json.loads(p.stdout)["modules"]
  return (True, "", sum(m["totals"]["computations"] for m in modules),
          sum(m["totals"]["instructions"] for m in modules))


def compare(hlolayout, cases_path, doc_path, jobs=2):
  """One row per case: (name, difference or None, documented)."""
  cases = load_cases(cases_path)
  documented = documented_cases(doc_path)
  with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
    ours = list(pool.map(lambda c: ours_parse(hlolayout, c[2]), cases))
  xla = xla_parse_all([text for _, _, text in cases])
  rows, details = [], []
  for (name, _, _), mine, theirs in zip(cases, ours, xla):
    difference = None
    if theirs[0] != mine[0]:
      if theirs[0]:
        difference = f"XLA accepts, hlolayout refuses: {mine[1][:160]}"
      else:
        difference = f"XLA refuses ({theirs[1][:160]}), hlolayout accepts"
    elif theirs[0]:
      if list(theirs[2:]) != list(mine[2:]):
        difference = (f"computations/instructions {mine[2]}/{mine[3]}, "
                      f"XLA {theirs[2]}/{theirs[3]}")
    rows.append((name, difference, name in documented))
    details.append((theirs, mine))
  unused = documented - {name for name, difference, _ in rows if difference}
  return rows, sorted(unused), details


if __name__ == "__main__":
  if sys.argv[1:] == ["--worker"]:
    _worker()
  elif len(sys.argv) == 3 and sys.argv[1] == "--markdown":
    # python parser_cases.py --markdown HLOLAYOUT: the table of differences
    import os  # pylint: disable=import-outside-toplevel
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    found = compare(sys.argv[2], os.path.join(root, "tests/data/xla_parser_cases.txt"),
                    os.path.join(root, "docs/hlo-text.md"))
    print(markdown(found[0], found[2]))
