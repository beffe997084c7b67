# Copyright 2026 Google LLC
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

"""``adk check``: the diagnostics of an agent folder, before it runs.

The folder is loaded exactly as ``adk run`` loads it (an ``AgentLoader`` over
the parent folder, the folder name as the agent; an ``App`` gives its root
agent), and nothing is run.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import textwrap
from typing import Any

import click

from ..diagnostics import check_agent_tree
from ..diagnostics import CODES
from ..diagnostics import Diagnostic
from ..diagnostics import Severity
from ._configuration_errors import load_error_text

_WIDTH = 80
_INDENT = '    '
_FAILED = 1
_LOAD_FAILED = 2


def run_check(
    agent: str,
    output_format: str,
    strict: bool,
    ignored_codes: tuple[str, ...],
) -> int:
  """Prints the diagnostics of the agent folder ``agent``.

  Args:
    agent: The agent folder, as for ``adk run``.
    output_format: ``'table'`` or ``'json'``.
    strict: Whether a warning fails the check, not only an error.
    ignored_codes: Codes not to report.

  Returns:
    The exit code: 0, 1 when an error (or with ``strict`` a warning) was
    found, 2 when the folder does not load.

  Raises:
    click.BadParameter: If an ignored code is not a diagnostic code.
  """
  unknown = sorted(set(ignored_codes) - set(CODES))
  if unknown:
    raise click.BadParameter(
        f'unknown code {", ".join(unknown)}; the codes are {", ".join(CODES)}.',
        param_hint='--ignore',
    )
  root = _load_root(agent)
  if root is None:
    return _LOAD_FAILED
  found = check_agent_tree(root)
  diagnostics = [d for d in found if d.code not in ignored_codes]
  ignored = [d for d in found if d.code in ignored_codes]
  if output_format == 'json':
    data = {
        'agent': root.name,
        'diagnostics': [item.to_dict() for item in diagnostics],
    }
    click.echo(json.dumps(data, indent=2))
  else:
    click.echo(render_table(root.name, diagnostics, ignored=ignored))
  failing = {Severity.ERROR, Severity.WARNING} if strict else {Severity.ERROR}
  return _FAILED if any(d.severity in failing for d in diagnostics) else 0


def _load_root(agent: str) -> Any:
  """Loads the root agent of a folder as ``adk run`` does; None on failure."""
  from ..apps.app import App
  from .utils.agent_loader import AgentLoader

  agents_dir = os.path.dirname(agent)
  folder_name = os.path.basename(agent)
  try:
    # An agent module that prints while it loads must not corrupt --format
    # json output.
    with contextlib.redirect_stdout(sys.stderr):
      loaded = AgentLoader(agents_dir=agents_dir).load_agent(folder_name)
  except Exception as e:  # pylint: disable=broad-except
    click.echo(load_error_text(e, agent), err=True)
    return None
  return loaded.root_agent if isinstance(loaded, App) else loaded


def render_table(
    root_name: str,
    diagnostics: list[Diagnostic],
    *,
    ignored: list[Diagnostic] | None = None,
) -> str:
  """Renders diagnostics as text that reads well in 80 columns.

  Each finding is a row of severity, code and agent, followed by what will
  happen and the fix, wrapped and indented under it. Findings the user chose
  to ignore are counted in the last line, so a clean-looking result still
  says that something was left out.

  Args:
    root_name: The name of the checked root agent.
    diagnostics: The findings, in the order to show them.
    ignored: The findings left out with ``--ignore``.

  Returns:
    The text, without a trailing newline.
  """
  left_out = _ignored_text(ignored or [])
  if not diagnostics:
    if left_out:
      return f'{root_name}: no problems reported ({left_out}).'
    return f'{root_name}: no problems found.'
  header = f'{"SEVERITY":<9}{"CODE":<10}AGENT'
  lines = [header, '-' * len(header)]
  for item in diagnostics:
    lines.append(f'{item.severity.value:<9}{item.code:<10}{item.agent}')
    lines.extend(_wrap(item.message))
    lines.extend(_wrap('Fix: ' + item.hint))
    lines.append('')
  counts = {
      severity: sum(d.severity is severity for d in diagnostics)
      for severity in Severity
  }
  summary = ', '.join(
      f'{count} {severity.value}{"" if count == 1 else "s"}'
      for severity, count in counts.items()
  )
  if left_out:
    summary += f' ({left_out})'
  lines.append(f'{root_name}: {summary}.')
  return '\n'.join(lines)


def _ignored_text(ignored: list[Diagnostic]) -> str:
  """Says how many findings ``--ignore`` left out, and of which codes."""
  if not ignored:
    return ''
  codes = ', '.join(sorted({d.code for d in ignored}))
  count = len(ignored)
  return f'{count} finding{"" if count == 1 else "s"} ignored: {codes}'


def _wrap(text: str) -> list[str]:
  return textwrap.wrap(
      text,
      width=_WIDTH,
      initial_indent=_INDENT,
      subsequent_indent=_INDENT,
      break_long_words=False,
      break_on_hyphens=False,
  )
