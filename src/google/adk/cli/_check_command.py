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
agent), and nothing is run. Exit codes: 0 when nothing is wrong enough to fail
(warnings and infos do not, unless ``--strict``), 1 when there is an error, 2
when the folder cannot be loaded or the options are wrong.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import textwrap
from typing import Any

import click

_WIDTH = 80
_INDENT = '    '
_LOAD_FAILED = 2


@click.command('check')
@click.option(
    '--format',
    'output_format',
    type=click.Choice(['table', 'json']),
    default='table',
    show_default=True,
    help=(
        'Optional. table: readable text; json: a JSON object with a'
        ' "diagnostics" list, and nothing else on stdout.'
    ),
)
@click.option(
    '--strict',
    is_flag=True,
    default=False,
    help='Optional. Exit with 1 on warnings too, not only on errors.',
)
@click.option(
    '--ignore',
    'ignored_codes',
    multiple=True,
    metavar='CODE',
    help=(
        'Optional. A diagnostic code not to report, such as ADK-D103.'
        ' Repeatable.'
    ),
)
@click.argument(
    'agent',
    type=click.Path(
        exists=True, dir_okay=True, file_okay=False, resolve_path=True
    ),
)
def cli_check(
    agent: str, output_format: str, strict: bool, ignored_codes: tuple[str, ...]
) -> None:
  """Checks an agent for wiring mistakes, without running it.

  Reports state keys read before anything produces them, internal replies
  nobody receives, data received twice, unknown include_sources names and
  trees where nobody talks to the user. Exits with 1 when there is an error.

  AGENT: The path to the agent source code folder, as for `adk run`.

  Example:

  \b
    adk check path/to/my_agent
    adk check --format json path/to/my_agent
  """
  from ..diagnostics import check_agent_tree
  from ..diagnostics import CODES
  from ..diagnostics import Severity

  unknown = sorted(set(ignored_codes) - set(CODES))
  if unknown:
    raise click.BadParameter(
        f'unknown code {", ".join(unknown)}; the codes are {", ".join(CODES)}.',
        param_hint='--ignore',
    )
  root = _load_root(agent)
  diagnostics = [
      diagnostic
      for diagnostic in check_agent_tree(root)
      if diagnostic.code not in ignored_codes
  ]
  if output_format == 'json':
    click.echo(
        json.dumps(
            {
                'agent': root.name,
                'diagnostics': [item.to_dict() for item in diagnostics],
            },
            indent=2,
        )
    )
  else:
    click.echo(render_table(root.name, diagnostics))
  failing = {Severity.ERROR, Severity.WARNING} if strict else {Severity.ERROR}
  if any(item.severity in failing for item in diagnostics):
    sys.exit(1)


def _load_root(agent: str) -> Any:
  """Loads the root agent of an agent folder the way ``adk run`` does."""
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
    click.echo(
        f'Error: cannot load the agent in {agent}: {e}\nThe folder must hold'
        ' an agent.py (or __init__.py, or root_agent.yaml) that defines'
        ' root_agent or an App, as for `adk run`.',
        err=True,
    )
    sys.exit(_LOAD_FAILED)
  return loaded.root_agent if isinstance(loaded, App) else loaded


def render_table(root_name: str, diagnostics: list[Any]) -> str:
  """Renders diagnostics as text that reads well in 80 columns.

  Each finding is a row of severity, code and agent, followed by what will
  happen and the fix, wrapped and indented under it.

  Args:
    root_name: The name of the checked root agent.
    diagnostics: The findings, in the order to show them.

  Returns:
    The text, without a trailing newline.
  """
  if not diagnostics:
    return f'{root_name}: no problems found.'
  header = f'{"SEVERITY":<9}{"CODE":<10}AGENT'
  lines = [header, '-' * len(header)]
  for item in diagnostics:
    lines.append(f'{item.severity.value:<9}{item.code:<10}{item.agent}')
    lines.extend(_wrap(item.message))
    lines.extend(_wrap('Fix: ' + item.hint))
    lines.append('')
  counts: dict[str, int] = {}
  for item in diagnostics:
    counts[item.severity.value] = counts.get(item.severity.value, 0) + 1
  summary = ', '.join(
      f'{counts.get(name, 0)} {name}{"" if counts.get(name, 0) == 1 else "s"}'
      for name in ('error', 'warning', 'info')
  )
  lines.append(f'{root_name}: {summary}.')
  return '\n'.join(lines)


def _wrap(text: str) -> list[str]:
  return textwrap.wrap(
      text,
      width=_WIDTH,
      initial_indent=_INDENT,
      subsequent_indent=_INDENT,
      break_long_words=False,
      break_on_hyphens=False,
  )
