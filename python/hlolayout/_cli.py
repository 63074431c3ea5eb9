"""The CLI run in process, for the last answers still assembled in the CLI.

Only triton.report (`hlolayout triton report --json`) and TensorSpec's
pictures in hlolayout.ttnn (`hlolayout ttnn draw/spec`) still come this way; issue 45 item 2 moves
them into the library and deletes this module. Everything else calls the
library directly. Errors are ValueError with the
CLI's message without its "hlolayout COMMAND: " prefix.
"""

import json as _json
import re as _re

from . import _hlolayout as _core


def _cli_json(args, input=""):
    return _json.loads(_cli_text(args, input))


def _cli_text(args, input=""):
    status, out, err = _core.run_cli(args, input)
    if status != 0:
        raise ValueError(_cli_message(err))
    return out.decode("utf-8")


def _cli_message(err):
    """The CLI's error text without its "hlolayout COMMAND: " prefix."""
    message = err.decode("utf-8", "replace")
    return _re.sub(r"^hlolayout [a-z_ -]+: ", "", message).rstrip("\n")
