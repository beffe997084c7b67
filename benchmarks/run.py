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

"""Benchmarks the fork side by side with pristine upstream google-adk 2.13.0.

Run with the fork's interpreter::

  .venv/bin/python benchmarks/run.py            # full run, a few minutes
  .venv/bin/python benchmarks/run.py --smoke    # CI: tiny sizes, one round
  .venv/bin/python benchmarks/run.py --only late_turn,user_view
  .venv/bin/python benchmarks/run.py --only windows
  .venv/bin/python benchmarks/run.py --only nested_progress,user_messages

The fork is the google.adk this interpreter imports. Upstream is the
pinned, hash-checked upstream wheel, installed once into
``.venv-upstream-2.13.0/`` at the top of the repository beside the same
distributions, at the same versions, as this interpreter has, and made again
when those change (``python -m adkfork upstream-venv``; or set
``ADK_UPSTREAM_PYTHON`` to an interpreter that has it). The report says
whether the two environments differ in more than google-adk. Each round
runs ``worker.py`` under both
interpreters, alternating which goes first (ABBA), and the report gives
medians across rounds and fork/upstream ratios. Outputs go to
``benchmarks/results/``: ``results.json`` (every round's raw figures),
``results.md`` (the table printed here) and ``request_size.png`` (when the
request sizes are measured: always unless ``--only`` leaves them out).
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import time
from typing import Any

_HERE = pathlib.Path(__file__).resolve().parent
_REPO = _HERE.parent
if str(_REPO) not in sys.path:
  # The repository's own tooling makes the upstream environment.
  sys.path.insert(0, str(_REPO))

from adkfork import project as project_lib  # noqa: E402
from adkfork import upstream  # noqa: E402
from adkfork.errors import ForkBuildError  # noqa: E402

if str(_HERE) not in sys.path:
  sys.path.insert(0, str(_HERE))
# The names of the measurements, which the worker defines.
from worker import LONG_SESSION_APPS  # noqa: E402
from worker import LONG_SESSION_STORES  # noqa: E402
from worker import MEASUREMENTS  # noqa: E402
from worker import NESTED_CONFIGS  # noqa: E402

_WORKER = _HERE / 'worker.py'
_UPSTREAM_VERSION = '2.13.0'
# At the top of the repository, beside .venv: under benchmarks/ the
# formatter (`python -m adkfork format`) would walk into it.
_BENCH_REQUIREMENTS = _REPO / 'requirements' / 'bench.txt'
_DEFAULT_OUT = _HERE / 'results'
_PIPELINE = ('intake', 'researcher', 'planner', 'writer')
_CONFIG_LABELS = {
    'default': 'upstream default',
    'none': "upstream include_contents='none'",
    'include_sources': "fork include_sources=['user','self']",
}
_SHORT_LABELS = {
    'default': 'upstream default',
    'none': "upstream 'none'",
    'include_sources': "fork ['user','self']",
}

_FULL = {
    'events': [1_000, 5_000, 10_000, 20_000, 50_000],
    'repeats': 3,
    'turns': 20,
    'throughput_turns': 40,
    'flat_events': [1_000, 20_000],
    'memory_events': 10_000,
    'late_turn': 40,
    'late_sessions': 4,
    'user_view_events': [1_000, 5_000, 10_000],
    'user_view_repeats': 9,
    'windows_turns': 40,
    'windows_repeats': 15,
    'nested_turns': 200,
    'user_messages_events': [1_000, 5_000, 10_000],
    'user_messages_repeats': 9,
    'long_turns': [10, 50, 100, 200],
    'rounds': 6,
    'judges_targets': True,
}
_SMOKE = {
    'events': [100, 300],
    'repeats': 1,
    'turns': 3,
    'throughput_turns': 4,
    'flat_events': [100, 300],
    'memory_events': 300,
    'late_turn': 3,
    'late_sessions': 1,
    'user_view_events': [100, 300],
    'user_view_repeats': 1,
    'windows_turns': 3,
    'windows_repeats': 1,
    'nested_turns': 4,
    'user_messages_events': [100, 300],
    'user_messages_repeats': 1,
    'long_turns': [5],
    'rounds': 1,
    # The targets are set at the full run's sizes (20,000 events, turn 40):
    # a smoke run's figures say nothing about them.
    'judges_targets': False,
}
_FILTER_TARGET = 1.05
"""Issue 21: a turn in filter mode costs at most this much of annotate's."""
_NESTED_TARGET = 1.05
"""Issue 33: a turn whose agent tool's work is streamed costs at most this
much of the same turn without it."""
_NESTED_LABELS = {
    'hidden': 'not streamed',
    'minimal': 'streamed',
}
_USER_MESSAGES_GROWTH = 1.5
"""Issue 33: `user_messages` is linear: its time per event at the largest
size is at most this much of the smallest's."""
_WINDOW_CONFIGS = (
    ('unfiltered', 'fork unfiltered'),
    ('plain_list', 'fork plain list'),
    ('windows', 'fork windows'),
)

# Issue 22: what the fork's request history must keep, judged on per-round
# ratios (fork/upstream). (label, measurement, size, variant, bound, at most).
_TARGETS = (
    ('_get_contents, 5,000 events', 'get_contents', 5_000, 'unfiltered', 0.25),
    (
        '_get_contents, 10,000 events',
        'get_contents',
        10_000,
        'unfiltered',
        0.25,
    ),
    (
        '_get_contents, 20,000 events',
        'get_contents',
        20_000,
        'unfiltered',
        0.30,
    ),
    ("['user','self'], 5,000 events", 'get_contents', 5_000, 'user_self', 0.10),
    (
        "['user','self'], 10,000 events",
        'get_contents',
        10_000,
        'user_self',
        0.10,
    ),
    ('peak memory, one call', 'peak_memory', None, None, 0.50),
    ('Runner, turn 40 (turns/s)', 'late_turn', None, 'default', 2.0),
    # Issue 23: a window costs no more than the unfiltered request to build,
    # from turn 10 on; windowed over unfiltered, both in the fork.
    ('window vs unfiltered, to build', 'windows', None, 'windows', 1.0),
    ('window vs unfiltered, turn 10 on', 'windows', None, 'worst_turn', 1.0),
    # Issue 33: streaming an agent tool's work costs at most 5 % of the turn
    # (streamed over not streamed, both in the fork), and user_messages is
    # linear (time per event at 10,000 events over 1,000, fork only).
    (
        'nested progress, streamed/not',
        'nested_progress',
        None,
        'streamed',
        _NESTED_TARGET,
    ),
    (
        'user_messages, growth per event',
        'user_messages',
        None,
        'growth',
        _USER_MESSAGES_GROWTH,
    ),
)
"""The 20,000-event bound replaces issue 21's target on the growth of the
time per event: that growth is the garbage collection of the contents the
call has to return, and upstream's grows alike."""


class _BenchmarkError(Exception):
  """A problem the user must fix; the message says how."""


def _pip(python: str, *args: str) -> None:
  command = [python, '-m', 'pip', 'install', '--quiet', *args]
  result = subprocess.run(command, capture_output=True, text=True)
  if result.returncode != 0:
    raise _BenchmarkError(
        f'`{" ".join(command)}` failed:\n{result.stdout}{result.stderr}'
    )


def _ensure_matplotlib() -> None:
  """Installs requirements/bench.txt into this venv if matplotlib is missing."""
  try:
    import matplotlib  # pylint: disable=unused-import
  except ImportError:
    if sys.prefix == sys.base_prefix:
      raise _BenchmarkError(
          'matplotlib is missing: run `python -m pip install -r'
          f' {_BENCH_REQUIREMENTS}` for {sys.executable}.'
      ) from None
    print(f'installing {_BENCH_REQUIREMENTS.name} into {sys.prefix}')
    _pip(sys.executable, '-r', str(_BENCH_REQUIREMENTS))


def _upstream_python() -> str:
  """The interpreter with pristine upstream; its venv is made the first time."""
  try:
    return upstream.upstream_python(project_lib.load_project(_REPO))
  except ForkBuildError as error:
    raise _BenchmarkError(str(error)) from None


def _run_worker(
    python: str, args: list[str], pin: str | None
) -> dict[str, Any]:
  command = [python, str(_WORKER), *args]
  if pin:
    command = ['taskset', '-c', pin, *command]
  # Neither interpreter may pick up the other's sources through PYTHONPATH.
  env = {k: v for k, v in os.environ.items() if k != 'PYTHONPATH'}
  result = subprocess.run(
      command, capture_output=True, text=True, env=env, cwd=_HERE
  )
  if result.returncode != 0:
    raise _BenchmarkError(
        f'the worker failed under {python}:\n{result.stderr[-4000:]}'
    )
  return json.loads(result.stdout.strip().splitlines()[-1])


def _check_sides(fork: dict[str, Any], upstream: dict[str, Any]) -> None:
  """Makes sure the two interpreters import the fork and upstream."""
  problems = []
  if not (fork['has_fork_info'] and fork['is_fork']):
    problems.append(
        f'{fork["python"]} imports google-adk {fork["adk_version"]} from'
        f' {fork["adk_file"]}, which is not the fork (google.adk.fork_info is'
        " missing or says upstream). Run this script with the fork's"
        ' interpreter, e.g. .venv/bin/python.'
    )
  else:
    for feature, name in (
        ('supports_include_sources', 'LlmAgent.include_sources'),
        ('supports_visibility_mode', 'RunConfig.visibility_mode'),
        ('supports_user_view', 'google.adk.events.user_view'),
        ('supports_source_windows', 'google.adk.agents.SourceWindow'),
        ('supports_nested_progress', 'RunConfig.nested_progress'),
        ('supports_user_messages', 'google.adk.events.user_messages'),
    ):
      if not fork[feature]:
        problems.append(f'the fork at {fork["adk_file"]} has no {name}.')
  if upstream['has_fork_info'] or upstream['adk_version'] != _UPSTREAM_VERSION:
    problems.append(
        f'{upstream["python"]} imports google-adk'
        f' {upstream["adk_version"]} from {upstream["adk_file"]}, not'
        f' pristine upstream {_UPSTREAM_VERSION}. Delete'
        f' .venv-upstream-{_UPSTREAM_VERSION}/ (or fix ADK_UPSTREAM_PYTHON)'
        ' and run again.'
    )
  if problems:
    raise _BenchmarkError('\n'.join(problems))


def _ratios(
    fork: list[float], upstream: list[float], best=min
) -> dict[str, float]:
  """Fork/upstream: of the medians, median of per-round, of the fastest."""
  return {
      'upstream_median': statistics.median(upstream),
      'fork_median': statistics.median(fork),
      'ratio_of_medians': statistics.median(fork) / statistics.median(upstream),
      'median_of_round_ratios': statistics.median(
          f / u for f, u in zip(fork, upstream)
      ),
      'fastest_ratio': best(fork) / best(upstream),
  }


def _summarise(
    runs: dict[str, list[dict[str, Any]]], settings: dict[str, Any]
) -> dict[str, Any]:
  up_runs, fork_runs = runs['upstream'], runs['fork']
  only = settings['only']
  summary: dict[str, Any] = {}
  if 'get_contents' in only:
    _summarise_get_contents(runs, settings, summary)
  if 'request_size' in only:
    _summarise_request_size(runs, summary)
  if 'throughput' in only:
    up_tp = [r['throughput']['default'] for r in up_runs]
    summary['throughput'] = {}
    for config in ('default', 'include_sources'):
      fork_tp = [r['throughput'][config] for r in fork_runs]
      rows = _ratios(
          [t['turns_per_s'] for t in fork_tp],
          [t['turns_per_s'] for t in up_tp],
          best=max,
      )
      rows['cpu_ratio_of_medians'] = statistics.median(
          t['cpu_s'] for t in fork_tp
      ) / statistics.median(t['cpu_s'] for t in up_tp)
      summary['throughput'][config] = rows
  if 'time_per_event' in only:
    # Time per event of back-to-back calls, GC on: the largest size over the
    # smallest, per side (1 is flat).
    small, large = (str(size) for size in settings['flat_events'])
    summary['time_per_event'] = {}
    for side, side_runs in runs.items():
      per_event = {
          size: statistics.median(
              r['time_per_event'][size]['us_per_event'] for r in side_runs
          )
          for size in (small, large)
      }
      summary['time_per_event'][side] = {
          **per_event,
          'growth': per_event[large] / per_event[small],
      }
  if 'peak_memory' in only:
    peaks = {
        side: statistics.median(r['peak_memory']['peak_mib'] for r in rs)
        for side, rs in runs.items()
    }
    summary['peak_memory'] = {
        **peaks,
        'ratio': peaks['fork'] / peaks['upstream'],
    }
  if 'late_turn' in only:
    _summarise_late_turn(runs, summary)
  if 'user_view' in only:
    _summarise_user_view(fork_runs, settings, summary)
  if 'windows' in only:
    _summarise_windows(runs, summary)
  if 'nested_progress' in only:
    _summarise_nested_progress(runs, summary)
  if 'user_messages' in only:
    _summarise_user_messages(fork_runs, settings, summary)
  if 'long_session' in only:
    _summarise_long_session(runs, settings, summary)
  summary['targets'] = (
      _check_targets(summary) if settings.get('judges_targets', True) else []
  )
  return summary


def _check_targets(summary: dict[str, Any]) -> list[dict[str, Any]]:
  """The targets (issues 22, 23, 33) this run measured, each met or not."""
  results = []
  for label, measurement, size, variant, bound in _TARGETS:
    if measurement == 'get_contents':
      row = summary.get('get_contents', {}).get(str(size), {}).get(variant)
      ratio = row and row['median_of_round_ratios']
    elif measurement == 'peak_memory':
      ratio = summary.get('peak_memory', {}).get('ratio')
    elif measurement == 'windows':
      row = summary.get('windows', {}).get('vs_unfiltered', {}).get(variant)
      ratio = row and row['median_of_round_ratios']
    elif measurement == 'nested_progress':
      row = summary.get('nested_progress', {}).get('streamed_vs_not')
      ratio = row and row['median_of_round_ratios']
    elif measurement == 'user_messages':
      ratio = summary.get('user_messages', {}).get('growth')
    else:
      row = summary.get('late_turn', {}).get(variant)
      ratio = row and row['median_of_round_ratios']
    if ratio is None:
      continue
    # A rate must reach its bound; a time or a size must stay under it.
    higher_is_better = measurement == 'late_turn'
    results.append({
        'target': label,
        'ratio': ratio,
        'bound': bound,
        'higher_is_better': higher_is_better,
        'met': ratio >= bound if higher_is_better else ratio <= bound,
    })
  return results


def _verdict(met: bool, settings: dict[str, Any]) -> str:
  """How a target line ends: met or not, where this run can judge it."""
  if not settings.get('judges_targets', True):
    return 'not judged at these sizes'
  return 'met' if met else 'NOT MET'


_TARGET_NOTES = {
    'windows': '(the window rows: windowed/unfiltered, both in the fork)',
    'nested_progress': (
        '(the nested progress row: streamed/not streamed, both in the fork)'
    ),
    'user_messages': (
        '(the user_messages row: us/event, largest size over smallest, fork)'
    ),
}


def _target_lines(targets: list[dict[str, Any]]) -> list[str]:
  lines = [
      '',
      'Targets (issues 22, 23 and 33), per-round ratio fork/upstream',
  ]
  measured = {
      measurement
      for label, measurement, *_ in _TARGETS
      if any(t['target'] == label for t in targets)
  }
  lines += [note for name, note in _TARGET_NOTES.items() if name in measured]
  lines.append(f'{"target":<32} {"ratio":>7} {"bound":>8}  result')
  for target in targets:
    bound = (
        f'{">=" if target["higher_is_better"] else "<="} {target["bound"]:.2f}'
    )
    lines.append(
        f'{target["target"]:<32} {target["ratio"]:>7.3f} {bound:>8} '
        f' {"met" if target["met"] else "NOT MET"}'
    )
  return lines


def _summarise_get_contents(
    runs: dict[str, list[dict[str, Any]]],
    settings: dict[str, Any],
    summary: dict[str, Any],
) -> None:
  up_runs, fork_runs = runs['upstream'], runs['fork']
  summary['get_contents'] = {}
  summary['digests_identical'] = {}
  for size in settings['events']:
    key = str(size)
    up_ms = [r['get_contents'][key]['unfiltered']['median_ms'] for r in up_runs]
    up_best = [r['get_contents'][key]['unfiltered']['best_ms'] for r in up_runs]
    rows = {}
    for variant in ('unfiltered', 'user_self'):
      figures = [r['get_contents'][key][variant] for r in fork_runs]
      rows[variant] = _ratios([f['median_ms'] for f in figures], up_ms)
      rows[variant]['fastest_ratio'] = min(f['best_ms'] for f in figures) / min(
          up_best
      )
    summary['get_contents'][key] = rows
    digests = {
        side: {r['get_contents'][key]['unfiltered']['digest'] for r in rs}
        for side, rs in runs.items()
    }
    summary['digests_identical'][key] = (
        len(digests['fork']) == 1 and digests['fork'] == digests['upstream']
    )
    collections = _full_collections(runs, key)
    if collections:
      summary.setdefault('full_collections', {})[key] = collections


def _full_collections(
    runs: dict[str, list[dict[str, Any]]], key: str
) -> dict[str, Any] | None:
  """The full collections in one unfiltered call of `key` events, per side
  (medians over rounds), and the fork/upstream ratio of the time left."""
  sides: dict[str, Any] = {}
  for side, rs in runs.items():
    rows = [r['get_contents'][key]['unfiltered'] for r in rs]
    if not all('full_collections' in row for row in rows):
      return None
    sides[side] = {
        'count': statistics.median(
            row['full_collections']['count'] for row in rows
        ),
        'ms': statistics.median(row['full_collections']['ms'] for row in rows),
        'rest_ms': statistics.median(
            row['median_ms'] - row['full_collections']['ms'] for row in rows
        ),
    }
  sides['rest_ratio'] = sides['fork']['rest_ms'] / sides['upstream']['rest_ms']
  return sides


def _summarise_request_size(
    runs: dict[str, list[dict[str, Any]]], summary: dict[str, Any]
) -> None:
  up_runs, fork_runs = runs['upstream'], runs['fork']
  # Request sizes are deterministic: every round must agree with the first.
  sizes = {
      'default': up_runs[0]['request_size']['default'],
      'none': up_runs[0]['request_size']['none'],
      'include_sources': fork_runs[0]['request_size']['include_sources'],
  }
  summary['request_size'] = sizes
  summary['request_size_deterministic'] = all(
      r['request_size'][c] == fork_runs[0]['request_size'][c]
      for r in fork_runs
      for c in r['request_size']
  ) and all(r['request_size'] == up_runs[0]['request_size'] for r in up_runs)
  summary['fork_default_requests_identical'] = all(
      fork_runs[0]['request_size'][c] == sizes[c] for c in ('default', 'none')
  )


def _summarise_late_turn(
    runs: dict[str, list[dict[str, Any]]], summary: dict[str, Any]
) -> None:
  """Turn rates against upstream's default, and filter mode's cost."""
  up_runs, fork_runs = runs['upstream'], runs['fork']
  up_late = [r['late_turn']['default']['turns_per_s'] for r in up_runs]
  summary['late_turn'] = {
      config: _ratios(
          [r['late_turn'][config]['turns_per_s'] for r in fork_runs],
          up_late,
          best=max,
      )
      for config in ('default', 'include_sources', 'filter')
  }
  # Time of the turn in filter mode over annotate mode (the fork's default),
  # both from the same fork processes: per-round ratios pair the sessions of
  # one process.
  ratios = _ratios(
      [r['late_turn']['filter']['wall_s'] for r in fork_runs],
      [r['late_turn']['default']['wall_s'] for r in fork_runs],
  )
  summary['filter_vs_annotate'] = {
      'annotate_ms': ratios['upstream_median'] * 1_000,
      'filter_ms': ratios['fork_median'] * 1_000,
      'ratio_of_medians': ratios['ratio_of_medians'],
      'median_of_round_ratios': ratios['median_of_round_ratios'],
      'fastest_ratio': ratios['fastest_ratio'],
      'target': _FILTER_TARGET,
      'meets_target': ratios['median_of_round_ratios'] <= _FILTER_TARGET,
  }


def _summarise_user_view(
    fork_runs: list[dict[str, Any]],
    settings: dict[str, Any],
    summary: dict[str, Any],
) -> None:
  """user_view's time per event at each size (fork only), and its growth."""
  rows = {}
  for size in settings['user_view_events']:
    figures = [r['user_view'][str(size)] for r in fork_runs]
    rows[str(size)] = {
        'median_ms': statistics.median(f['median_ms'] for f in figures),
        # A damaged session against the sound one, per round: both from
        # the same process, one after the other.
        'damaged_ratio': (
            statistics.median(
                f['damaged_median_ms'] / f['median_ms']
                for f in figures
                if f.get('damaged_median_ms')
            )
            if any(f.get('damaged_median_ms') for f in figures)
            else None
        ),
        'us_per_event': statistics.median(f['us_per_event'] for f in figures),
        'best_us_per_event': min(f['best_ms'] for f in figures) * 1_000 / size,
        'internal_share': figures[0]['internal_events'] / size,
        'shown_events': figures[0]['shown_events'],
        'internal_text_shown': max(
            f['shown_with_internal_text'] for f in figures
        ),
    }
  sizes = settings['user_view_events']
  small, large = str(sizes[0]), str(sizes[-1])
  summary['user_view'] = {
      'sizes': rows,
      'growth': rows[large]['us_per_event'] / rows[small]['us_per_event'],
  }


def _summarise_nested_progress(
    runs: dict[str, list[dict[str, Any]]], summary: dict[str, Any]
) -> None:
  """Turn rates against upstream, and what streaming the nested work costs."""
  up_runs, fork_runs = runs['upstream'], runs['fork']
  upstream = [r['nested_progress']['upstream'] for r in up_runs]
  rows = {}
  for config in NESTED_CONFIGS:
    fork = [r['nested_progress'][config] for r in fork_runs]
    rows[config] = _ratios(
        [f['turns_per_s'] for f in fork],
        [u['turns_per_s'] for u in upstream],
        best=max,
    )
    rows[config]['cpu_ratio_of_medians'] = statistics.median(
        f['cpu_s'] for f in fork
    ) / statistics.median(u['cpu_s'] for u in upstream)
  # Streamed over not streamed, both from the same fork processes: the
  # per-round ratio pairs the interleaved conversations of one process.
  fork_figures = {
      config: [r['nested_progress'][config] for r in fork_runs]
      for config in NESTED_CONFIGS
  }
  hidden, minimal = (fork_figures[c] for c in ('hidden', 'minimal'))
  wall = _ratios(
      [f['ms_per_turn'] for f in minimal], [f['ms_per_turn'] for f in hidden]
  )
  cpu = _ratios([f['cpu_s'] for f in minimal], [f['cpu_s'] for f in hidden])
  first = fork_runs[0]['nested_progress']
  digests = {
      figures['requests_digest']
      for r in up_runs + fork_runs
      for figures in r['nested_progress'].values()
  }
  summary['nested_progress'] = {
      'vs_upstream': rows,
      'upstream_ms': statistics.median(u['ms_per_turn'] for u in upstream),
      'streamed_vs_not': {
          'hidden_ms': wall['upstream_median'],
          'minimal_ms': wall['fork_median'],
          'ratio_of_medians': wall['ratio_of_medians'],
          'median_of_round_ratios': wall['median_of_round_ratios'],
          'fastest_ratio': wall['fastest_ratio'],
          'cpu_median_of_round_ratios': cpu['median_of_round_ratios'],
          'round_ratios': [
              m['ms_per_turn'] / h['ms_per_turn']
              for m, h in zip(minimal, hidden)
          ],
          'target': _NESTED_TARGET,
          'meets_target': wall['median_of_round_ratios'] <= _NESTED_TARGET,
      },
      'progress_per_turn': {
          config: first[config]['progress_events'] / first[config]['turns']
          for config in NESTED_CONFIGS
      },
      'steps': first['minimal']['steps'],
      'requests_identical': len(digests) == 1,
  }


def _summarise_long_session(
    runs: dict[str, list[dict[str, Any]]],
    settings: dict[str, Any],
    summary: dict[str, Any],
) -> None:
  """CPU ms per turn of each app and store at each turn, both sides."""
  up_runs, fork_runs = runs['upstream'], runs['fork']
  blocks: dict[str, Any] = {}
  for app in LONG_SESSION_APPS:
    for store in LONG_SESSION_STORES:
      key = f'{app}/{store}'
      rows = {}
      for turn in map(str, settings['long_turns']):
        up = [r['long_session'][key][turn] for r in up_runs]
        fork = [r['long_session'][key][turn] for r in fork_runs]
        row = {
            side: {
                name: statistics.median(f[name] for f in figures)
                for name in ('amortized_ms', 'gc_ms', 'checkpoint_ms')
            }
            for side, figures in (('upstream', up), ('fork', fork))
        }
        floor = statistics.median(f['floor']['cpu_ms'] for f in up + fork)
        row.update({
            'events': fork[0]['events'],
            'window_turns': fork[0]['window_turns'],
            'floor_ms': floor,
            'amortized': _ratios(
                [f['amortized_ms'] for f in fork],
                [f['amortized_ms'] for f in up],
            ),
            'checkpoint': _ratios(
                [f['checkpoint_ms'] for f in fork],
                [f['checkpoint_ms'] for f in up],
            ),
            'fork_over_floor': row['fork']['amortized_ms'] / floor,
            'upstream_over_floor': row['upstream']['amortized_ms'] / floor,
            # The checkpoint turn's model requests, the same on both sides
            # and in every round: the stores change no request.
            'requests_identical': (
                len({f['requests_digest'] for f in up + fork}) == 1
            ),
            # And what the session holds at T: every stored event (the
            # fields both installs store) and the state.
            'stored_identical': (
                len({
                    (f.get('events_digest'), f.get('state_digest'))
                    for f in up + fork
                })
                == 1
            ),
        })
        rows[turn] = row
      blocks[key] = rows
  summary['long_session'] = blocks


def _summarise_user_messages(
    fork_runs: list[dict[str, Any]],
    settings: dict[str, Any],
    summary: dict[str, Any],
) -> None:
  """user_messages' time per event at each size (fork only), its growth."""
  rows = {}
  for size in settings['user_messages_events']:
    figures = [r['user_messages'][str(size)] for r in fork_runs]
    first = figures[0]
    rows[str(size)] = {
        'median_ms': statistics.median(f['median_ms'] for f in figures),
        'us_per_event': statistics.median(f['us_per_event'] for f in figures),
        'best_us_per_event': min(f['best_ms'] for f in figures) * 1_000 / size,
        'cpu_us_per_event': (
            statistics.median(f['cpu_ms'] for f in figures) * 1_000 / size
        ),
        'messages': first['messages'],
        'assistant_messages': first['assistant_messages'],
        'parts': first['parts'],
        'client_cards': first['client_cards'],
        'recorded_steps': first['recorded_steps'],
        'hidden_shown': max(f['hidden_shown'] for f in figures),
    }
  sizes = settings['user_messages_events']
  small, large = str(sizes[0]), str(sizes[-1])
  summary['user_messages'] = {
      'turn_events': fork_runs[0]['user_messages']['turn_events'],
      'sizes': rows,
      'growth': rows[large]['us_per_event'] / rows[small]['us_per_event'],
      'cpu_growth': (
          rows[large]['cpu_us_per_event'] / rows[small]['cpu_us_per_event']
      ),
  }


def _summarise_windows(
    runs: dict[str, list[dict[str, Any]]], summary: dict[str, Any]
) -> None:
  """The writer's request per configuration: its size, and its build time.

  Times are compared within the fork (windowed or plain list over
  unfiltered: the per-round ratio pairs calls of one process) and with
  upstream's unfiltered call.
  """
  up_runs, fork_runs = runs['upstream'], runs['fork']
  first = fork_runs[0]['windows']
  upstream = up_runs[0]['windows']['configs']['unfiltered']
  fork_ms = {
      config: [r['windows']['configs'][config]['median_ms'] for r in fork_runs]
      for config, _ in _WINDOW_CONFIGS
  }
  up_ms = [r['windows']['configs']['unfiltered']['median_ms'] for r in up_runs]
  sizes = {
      'upstream': {k: upstream[k] for k in ('contents', 'chars')},
      **{
          config: {
              k: first['configs'][config][k] for k in ('contents', 'chars')
          }
          for config, _ in _WINDOW_CONFIGS
      },
  }
  summary['windows'] = {
      'turns': first['turns'],
      'events': first['events'],
      'sizes': sizes,
      'upstream_ms': statistics.median(up_ms),
      'fork_ms': {c: statistics.median(ms) for c, ms in fork_ms.items()},
      'vs_unfiltered': {
          config: _ratios(fork_ms[config], fork_ms['unfiltered'])
          for config in ('plain_list', 'windows')
      },
      'vs_upstream': {
          config: _ratios(ms, up_ms) for config, ms in fork_ms.items()
      },
      # Sizes are deterministic: every round of each side agrees.
      'deterministic': (
          all(
              r['windows']['configs'][c]['digest']
              == first['configs'][c]['digest']
              for r in fork_runs
              for c in first['configs']
          )
          and all(
              r['windows']['configs']['unfiltered']['digest']
              == upstream['digest']
              for r in up_runs
          )
      ),
      'unfiltered_identical': (
          first['configs']['unfiltered']['digest'] == upstream['digest']
      ),
      'matches_runner_request': all(
          r['windows']['matches_runner_request'] for r in up_runs + fork_runs
      ),
      'by_turn': _windows_by_turn(fork_runs),
  }
  turns = summary['windows']['by_turn']
  if turns:
    # The last turn is the table's; from turn 10 on a window must not cost
    # more. Before that the session holds a handful of events, and a window's
    # fixed cost is not what the bound is about.
    summary['windows']['vs_unfiltered']['worst_turn'] = max(
        [row['windows'] for turn, row in turns.items() if int(turn) >= 10]
        + [summary['windows']['vs_unfiltered']['windows']],
        key=lambda ratio: ratio['median_of_round_ratios'],
    )


def _windows_by_turn(fork_runs: list[dict[str, Any]]) -> dict[str, Any]:
  """Per earlier turn: its events, and each filter's time over unfiltered."""
  by_turn: dict[str, Any] = {}
  for turn, first in fork_runs[0]['windows'].get('by_turn', {}).items():
    rows = [r['windows']['by_turn'][turn] for r in fork_runs]
    by_turn[turn] = {
        'events': first['events'],
        **{
            config: _ratios(
                [row[config] for row in rows],
                [row['unfiltered'] for row in rows],
            )
            for config in ('plain_list', 'windows')
        },
    }
  return by_turn


def _yes(value: bool) -> str:
  return 'yes' if value else 'NO'


def _number(value: float) -> str:
  return f'{value:,.0f}' if value >= 1_000 else f'{value:.2f}'


def _turns_table(
    title: str,
    legend: str,
    rows: dict[str, Any],
    labels: tuple[tuple[str, str], ...],
    *,
    with_cpu: bool,
) -> list[str]:
  """Renders Runner turns per second, one line per (config, label)."""
  header = (
      f'{"fork configuration":<18} {"upstream":>8} {"fork":>7}'
      f' {"medians":>8} {"per-round":>9} {"fastest":>8}'
  )
  lines = ['', title, legend, header + (f' {"CPU s":>6}' if with_cpu else '')]
  for config, label in labels:
    row = rows[config]
    line = (
        f'{label:<18} {row["upstream_median"]:>8.1f}'
        f' {row["fork_median"]:>7.1f} {row["ratio_of_medians"]:>8.3f}'
        f' {row["median_of_round_ratios"]:>9.3f}'
        f' {row["fastest_ratio"]:>8.3f}'
    )
    if with_cpu:
      line += f' {row["cpu_ratio_of_medians"]:>6.3f}'
    lines.append(line)
  return lines


def _get_contents_lines(summary: dict[str, Any]) -> list[str]:
  lines = [
      '',
      "_get_contents, ms (agent 'writer')            fork/upstream",
      (
          f'{"events":>6}  {"variant":<15} {"upstream":>9} {"fork":>9}'
          f' {"medians":>8} {"per-round":>9} {"fastest":>8}'
      ),
  ]
  for size, rows in summary['get_contents'].items():
    for variant, label in (
        ('unfiltered', 'unfiltered'),
        ('user_self', "['user','self']"),
    ):
      row = rows[variant]
      upstream = (
          _number(row['upstream_median']) if variant == 'unfiltered' else '-'
      )
      lines.append(
          f'{int(size):>6,}  {label:<15} {upstream:>9}'
          f' {_number(row["fork_median"]):>9}'
          f' {row["ratio_of_medians"]:>8.3f}'
          f' {row["median_of_round_ratios"]:>9.3f}'
          f' {row["fastest_ratio"]:>8.3f}'
      )
  same = all(summary['digests_identical'].values())
  return (
      lines
      + [
          "Filtered rows are compared with upstream's unfiltered call.",
          (
              'Unfiltered output identical to upstream (digest):'
              f' {"yes" if same else "NO"}'
          ),
      ]
      + _full_collection_lines(summary.get('full_collections', {}))
  )


def _full_collection_lines(collections: dict[str, Any]) -> list[str]:
  """What full garbage collections took of the largest sizes' calls, if any."""
  if not collections:
    return []
  lines = [
      'Full collections per unfiltered call (medians over calls and rounds):',
      (
          f'{"events":>6}  {"upstream":>17} {"fork":>17}'
          f' {"the rest, fork/upstream":>24}'
      ),
  ]
  for size, sides in collections.items():
    up, fork = sides['upstream'], sides['fork']
    lines.append(
        f'{int(size):>6,}  {up["count"]:>4g} in {up["ms"]:>6,.0f} ms'
        f' {fork["count"]:>4g} in {fork["ms"]:>6,.0f} ms'
        f' {sides["rest_ratio"]:>24.3f}'
    )
  return lines


def _request_size_lines(
    summary: dict[str, Any], settings: dict[str, Any]
) -> list[str]:
  turns = settings['turns']
  lines = [
      '',
      (
          f'Request at turn {turns}: characters of llm_request.contents; user'
          ' text = share'
      ),
      (
          'of all the user typed so far found in the request; current = this'
          " turn's"
      ),
      'user message present.',
      (
          f'{"agent":<11} {"configuration":<21} {"chars":>9} {"vs default":>10}'
          f' {"user text":>9}  {"current":<7}'
      ),
  ]
  sizes = summary['request_size']
  for agent in _PIPELINE:
    baseline = sizes['default'][agent]['chars'][-1]
    for index, config in enumerate(('default', 'none', 'include_sources')):
      figures = sizes[config][agent]
      chars = figures['chars'][-1]
      lines.append(
          f'{agent if index == 0 else "":<11} {_SHORT_LABELS[config]:<21}'
          f' {chars:>9,} {chars / baseline:>10.3f}'
          f' {figures["user_text_kept"][-1]:>9.0%}'
          f'  {"yes" if figures["current_message_present"][-1] else "NO":<7}'
      )
  totals = {
      config: sum(sum(sizes[config][a]['chars']) for a in _PIPELINE)
      for config in sizes
  }
  lines.append(f'all 4 agents, turns 1-{turns}, characters sent:')
  for config, total in totals.items():
    lines.append(
        f'{"":<11} {_SHORT_LABELS[config]:<21} {total:>9,}'
        f' {total / totals["default"]:>10.3f}'
    )
  lines.append(
      "Fork with default settings sends upstream's requests exactly:"
      f' {"yes" if summary["fork_default_requests_identical"] else "NO"}'
  )
  return lines


def _late_turn_lines(
    summary: dict[str, Any], settings: dict[str, Any]
) -> list[str]:
  late = settings['late_turn']
  lines = _turns_table(
      (
          f'Runner, turn {late} of a conversation (median of'
          f' {settings["late_sessions"]} sessions)'
      ),
      'turns/s; ratios fork/upstream default (>1: fork faster)',
      summary['late_turn'],
      (
          ('default', 'default (annotate)'),
          ('include_sources', "['user','self']"),
          ('filter', 'filter mode'),
      ),
      with_cpu=False,
  )
  cost = summary['filter_vs_annotate']
  verdict = _verdict(cost['meets_target'], settings)
  return lines + [
      (
          f'filter/annotate, time of turn {late} in the fork: annotate'
          f' {cost["annotate_ms"]:.1f} ms, filter {cost["filter_ms"]:.1f} ms'
      ),
      (
          f'medians {cost["ratio_of_medians"]:.3f}  per-round'
          f' {cost["median_of_round_ratios"]:.3f}  fastest'
          f' {cost["fastest_ratio"]:.3f}  target per-round <='
          f' {cost["target"]:.2f}: {verdict}'
      ),
  ]


def _user_view_lines(
    summary: dict[str, Any], settings: dict[str, Any]
) -> list[str]:
  figures = summary['user_view']
  sizes = settings['user_view_events']
  first = figures['sizes'][str(sizes[0])]
  lines = [
      '',
      (
          'user_view over a stored session, fork only (upstream 2.13.0 has no'
          ' user_view);'
      ),
      (
          f'the benchmark\'s session, {first["internal_share"]:.0%} of events'
          ' internal (intake, researcher, planner)'
      ),
      (
          f'{"events":>6} {"ms/call":>9} {"us/event":>9} {"fastest":>8}'
          f' {"shown":>7} {"damaged/sound":>14}'
      ),
  ]
  for size in sizes:
    row = figures['sizes'][str(size)]
    damaged = row.get('damaged_ratio')
    lines.append(
        f'{size:>6,} {row["median_ms"]:>9.2f} {row["us_per_event"]:>9.2f}'
        f' {row["best_us_per_event"]:>8.2f} {row["shown_events"]:>7,}'
        f' {"-" if damaged is None else f"{damaged:.2f}":>14}'
    )
  leaked = any(row['internal_text_shown'] for row in figures['sizes'].values())
  lines += [
      (
          f'growth of us/event, {sizes[0]:,} to {sizes[-1]:,} events:'
          f' {figures["growth"]:.2f} (1 is linear)'
      ),
      f'Internal agents\' text in the view: {"YES" if leaked else "none"}',
  ]
  return lines


def _nested_progress_lines(
    summary: dict[str, Any], settings: dict[str, Any]
) -> list[str]:
  nested = summary['nested_progress']
  lines = _turns_table(
      (
          'Nested progress (issue 33): an assistant calls an AgentTool'
          f' researcher ({nested["steps"]}'
      ),
      (
          f'searches), then answers; {settings["nested_turns"]} turns in'
          ' conversations of 10, zero-latency'
      ),
      nested['vs_upstream'],
      tuple((config, _NESTED_LABELS[config]) for config in NESTED_CONFIGS),
      with_cpu=True,
  )
  # Under the title, what the rows run and how to read them.
  lines[3:3] = [
      "model; the fork in filter mode, streamed: nested_progress='minimal';",
      'upstream with its default RunConfig. turns/s; ratios fork/upstream',
      '(>1: fork faster; CPU <1: less)',
  ]
  cost = nested['streamed_vs_not']
  per_turn = nested['progress_per_turn']
  verdict = _verdict(cost['meets_target'], settings)
  return lines + [
      (
          'streamed/not streamed, time of a turn in the fork: not streamed'
          f' {cost["hidden_ms"]:.1f} ms,'
      ),
      (
          f'streamed {cost["minimal_ms"]:.1f} ms (upstream'
          f' {nested["upstream_ms"]:.1f} ms); medians'
          f' {cost["ratio_of_medians"]:.3f}  per-round'
          f' {cost["median_of_round_ratios"]:.3f}'
      ),
      (
          f'fastest {cost["fastest_ratio"]:.3f}  CPU per-round'
          f' {cost["cpu_median_of_round_ratios"]:.3f}'
      ),
      f'target per-round <= {cost["target"]:.2f}: {verdict}',
      (
          'Progress events per turn: not streamed'
          f' {per_turn["hidden"]:g}, streamed {per_turn["minimal"]:g}'
      ),
      (
          'Model requests identical in both fork configurations and'
          f' upstream: {_yes(nested["requests_identical"])}'
      ),
  ]


def _user_messages_lines(
    summary: dict[str, Any], settings: dict[str, Any]
) -> list[str]:
  figures = summary['user_messages']
  sizes = settings['user_messages_events']
  lines = [
      '',
      (
          'user_messages over a stored conversation, fork only (upstream 2.13.0'
          ' has'
      ),
      (
          f'no user_messages); one stored turn of {figures["turn_events"]}'
          ' events repeated: an AgentTool'
      ),
      "researcher (its run recorded), a 'minimal' tool, a 'hidden' tool,",
      'a client tool and the answer',
      (
          f'{"events":>6} {"ms/call":>9} {"us/event":>9} {"fastest":>8}'
          f' {"CPU us":>7} {"messages":>9} {"cards":>6} {"steps":>6}'
      ),
  ]
  for size in sizes:
    row = figures['sizes'][str(size)]
    cards = row['parts'].get('tool', 0) + row['parts'].get('agent', 0)
    lines.append(
        f'{size:>6,} {row["median_ms"]:>9.2f} {row["us_per_event"]:>9.2f}'
        f' {row["best_us_per_event"]:>8.2f} {row["cpu_us_per_event"]:>7.2f}'
        f' {row["messages"]:>9,} {cards:>6,} {row["recorded_steps"]:>6,}'
    )
  hidden = any(row['hidden_shown'] for row in figures['sizes'].values())
  met = figures['growth'] <= _USER_MESSAGES_GROWTH
  return lines + [
      (
          f'growth of us/event, {sizes[0]:,} to {sizes[-1]:,} events:'
          f' {figures["growth"]:.2f} (CPU {figures["cpu_growth"]:.2f}; 1 is'
          ' linear)'
      ),
      (
          f'target growth <= {_USER_MESSAGES_GROWTH:.2f}:'
          f' {_verdict(met, settings)}'
      ),
      f'Hidden tool in the messages: {"YES" if hidden else "none"}',
  ]


_LONG_LABELS = {
    'pipeline': '4-agent pipeline',
    'team': '3-agent transfer team',
    'memory': 'InMemorySessionService',
    'sqlite': 'DatabaseSessionService, SQLite',
}


def _long_session_lines(summary: dict[str, Any]) -> list[str]:
  """The long-session table: one block per app and store."""
  lines = [
      '',
      'Long session: CPU ms per turn, one conversation per app and store',
      'amort = mean of the turns just before T (T/10, at least 3), the',
      'collector running as on a server (GC counted); GC = of which the',
      "collector; ckpt = gc.collect(), then turn T alone; floor = turn T's",
      'model requests through model_dump + json.dumps; ratios per round',
  ]
  identical = stored = True
  for key, rows in summary['long_session'].items():
    app, store = key.split('/')
    lines += [
        f'{_LONG_LABELS[app]}, {_LONG_LABELS[store]}',
        (
            f'{"T":>4} {"events":>6} {"up amort":>8} {"GC":>5}'
            f' {"fork":>6} {"GC":>5} {"f/up":>5} {"up ckpt":>7}'
            f' {"fork":>6} {"f/up":>5} {"floor":>5} {"f/flr":>5}'
        ),
    ]
    for turn, row in rows.items():
      up, fork = row['upstream'], row['fork']
      identical = identical and row['requests_identical']
      stored = stored and row.get('stored_identical', False)
      lines.append(
          f'{turn:>4} {row["events"]:>6,} {up["amortized_ms"]:>8.1f}'
          f' {up["gc_ms"]:>5.1f} {fork["amortized_ms"]:>6.1f}'
          f' {fork["gc_ms"]:>5.1f}'
          f' {row["amortized"]["median_of_round_ratios"]:>5.2f}'
          f' {up["checkpoint_ms"]:>7.1f} {fork["checkpoint_ms"]:>6.1f}'
          f' {row["checkpoint"]["median_of_round_ratios"]:>5.2f}'
          f' {row["floor_ms"]:>5.1f} {row["fork_over_floor"]:>5.1f}'
      )
  lines.append(
      'Model requests at every checkpoint identical, fork and upstream, every'
      f' round: {_yes(identical)}'
  )
  lines.append(
      'Stored events and state at every checkpoint identical (but the'
      " fork's visibility field), fork and upstream, every round:"
      f' {_yes(stored)}'
  )
  return lines


def _windows_lines(
    summary: dict[str, Any], settings: dict[str, Any]
) -> list[str]:
  windows = summary['windows']
  sizes = windows['sizes']
  lines = [
      '',
      (
          "Source windows (issue 23): the writer's request at turn"
          f' {windows["turns"]} of a session'
      ),
      (
          '(planner, researcher with a search tool, writer;'
          f' {windows["events"]:,} events). _get_contents'
      ),
      (
          f'ms: median of {settings["windows_repeats"]} call'
          f'{"" if settings["windows_repeats"] == 1 else "s"} a round;'
          ' /unfiltered: median per-round ratio'
      ),
      (
          f'{"configuration":<16} {"contents":>8} {"chars":>9}'
          f' {"vs upstream":>11} {"ms":>8} {"/unfiltered":>11}'
      ),
  ]
  rows = [('upstream', 'upstream', windows['upstream_ms'], None)]
  for config, label in _WINDOW_CONFIGS:
    ratio = windows['vs_unfiltered'].get(config)
    rows.append((
        config,
        label,
        windows['fork_ms'][config],
        ratio['median_of_round_ratios'] if ratio else 1.0,
    ))
  for config, label, ms, ratio in rows:
    size = sizes[config]
    lines.append(
        f'{label:<16} {size["contents"]:>8,} {size["chars"]:>9,}'
        f' {size["chars"] / sizes["upstream"]["chars"]:>11.3f}'
        f' {ms:>8.2f} {"-" if ratio is None else f"{ratio:.3f}":>11}'
    )
  vs_upstream = windows['vs_upstream']
  worst = windows['vs_unfiltered'].get(
      'worst_turn', windows['vs_unfiltered']['windows']
  )
  target = worst['median_of_round_ratios']
  return lines + [
      "plain list: ['user','planner','researcher']; windows: user first=1",
      'last=1, planner last=1, researcher final_answers_only',
      (
          'time fork/upstream, per-round: unfiltered'
          f' {vs_upstream["unfiltered"]["median_of_round_ratios"]:.3f},'
          ' plain list'
          f' {vs_upstream["plain_list"]["median_of_round_ratios"]:.3f},'
          f' windows {vs_upstream["windows"]["median_of_round_ratios"]:.3f}'
      ),
      (
          'Unfiltered request identical to upstream (digest):'
          f' {_yes(windows["unfiltered_identical"])}; to the'
          f' Runner\'s: {_yes(windows["matches_runner_request"])}'
      ),
      f'Sizes the same in every round: {_yes(windows["deterministic"])}',
      *_windows_turn_lines(windows),
      (
          'a window never costs more than the unfiltered request to build'
          f' (at its worst turn {target:.3f}):'
          f' {_verdict(target <= 1.0, settings)}'
      ),
  ]


def _windows_turn_lines(windows: dict[str, Any]) -> list[str]:
  """The time over unfiltered at earlier turns of the session, if measured."""
  if not windows['by_turn']:
    return []
  lines = [
      'Over unfiltered at earlier turns (median per-round ratio):',
      f'{"turn":>6} {"events":>7} {"plain list":>11} {"windows":>8}',
  ]
  for turn, row in windows['by_turn'].items():
    lines.append(
        f'{turn:>6} {row["events"]:>7,}'
        f' {row["plain_list"]["median_of_round_ratios"]:>11.3f}'
        f' {row["windows"]["median_of_round_ratios"]:>8.3f}'
    )
  return lines


def _environment_lines(about: dict[str, Any]) -> list[str]:
  """Whether the two interpreters have the same distributions but google-adk.

  Each side imports what its environment has (google-genai imports aiohttp
  and Pillow when they are installed), and a process with more modules pays
  more for every full garbage collection, so a difference is reported.
  """
  fork = set(about['fork']['distributions'])
  upstream = set(about['upstream']['distributions'])
  if fork == upstream:
    return [f'both sides: the same {len(fork)} distributions but google-adk']
  lines = ['WARNING: the two environments differ in more than google-adk:']
  for side, only in (('fork', fork - upstream), ('upstream', upstream - fork)):
    if only:
      lines.append(f'  only the {side} has: {", ".join(sorted(only))}')
  return lines


def _table(
    summary: dict[str, Any],
    settings: dict[str, Any],
    about: dict[str, Any],
    wall_s: float,
) -> str:
  """The report, readable in 80 columns."""
  lines = [
      (
          f'fork {about["fork"]["adk_version"]} vs upstream'
          f' {about["upstream"]["adk_version"]}, Python'
          f' {about["fork"]["python_version"]}'
      ),
      (
          f'{settings["rounds"]} round(s) per side, alternating (ABBA); wall'
          f' time {wall_s:.0f} s; medians across rounds'
      ),
  ]
  lines += _environment_lines(about)
  if settings['only'] != list(MEASUREMENTS):
    lines.append(f'only: {", ".join(settings["only"])}')
  if 'get_contents' in summary:
    lines += _get_contents_lines(summary)
  if 'request_size' in summary:
    lines += _request_size_lines(summary, settings)
  if 'throughput' in summary:
    lines += _turns_table(
        (
            'Runner throughput, 4-agent pipeline,'
            f' {settings["throughput_turns"]} turns, zero-latency model'
        ),
        'turns/s; ratios fork/upstream default (>1: fork faster; CPU <1: less)',
        summary['throughput'],
        (('default', 'default'), ('include_sources', "['user','self']")),
        with_cpu=True,
    )
  if 'late_turn' in summary:
    lines += _late_turn_lines(summary, settings)
  if 'time_per_event' in summary:
    small, large = settings['flat_events']
    flat = summary['time_per_event']
    lines += [
        '',
        (
            '_get_contents, microseconds per event of back-to-back calls, GC'
            " on (agent 'writer')"
        ),
        (
            f'{"side":<9} {f"{small:,} events":>13} {f"{large:,} events":>14}'
            f' {"growth":>7}'
        ),
    ]
    for side in ('upstream', 'fork'):
      lines.append(
          f'{side:<9} {flat[side][str(small)]:>13.1f}'
          f' {flat[side][str(large)]:>14.1f} {flat[side]["growth"]:>7.2f}'
      )
    lines.append(
        f'fork/upstream at {large:,} events:'
        f' {flat["fork"][str(large)] / flat["upstream"][str(large)]:.3f}'
    )
  if 'peak_memory' in summary:
    peak = summary['peak_memory']
    lines += [
        '',
        (
            '_get_contents peak memory of one call at'
            f' {settings["memory_events"]:,} events (tracemalloc), MiB'
        ),
        (
            f'upstream {peak["upstream"]:.1f}   fork {peak["fork"]:.1f}'
            f'   fork/upstream {peak["ratio"]:.3f}'
        ),
    ]
  if 'user_view' in summary:
    lines += _user_view_lines(summary, settings)
  if 'windows' in summary:
    lines += _windows_lines(summary, settings)
  if 'nested_progress' in summary:
    lines += _nested_progress_lines(summary, settings)
  if 'user_messages' in summary:
    lines += _user_messages_lines(summary, settings)
  if 'long_session' in summary:
    lines += _long_session_lines(summary)
  if summary.get('targets'):
    lines += _target_lines(summary['targets'])
  elif not settings.get('judges_targets', True):
    lines += [
        '',
        'Targets (issues 22, 23 and 33): not judged here; they are set at',
        "the full run's sizes.",
    ]
  return '\n'.join(line.rstrip() for line in lines)


def _plot(summary: dict[str, Any], path: pathlib.Path) -> None:
  """Request size against turn, one panel per agent."""
  import matplotlib

  matplotlib.use('Agg')
  from matplotlib import pyplot

  sizes = summary['request_size']
  figure, axes = pyplot.subplots(
      2, 2, figsize=(10, 7), sharex=True, sharey=True
  )
  styles = {
      'default': {'color': 'tab:red', 'marker': 'o'},
      'none': {'color': 'tab:gray', 'marker': 's'},
      'include_sources': {'color': 'tab:blue', 'marker': '^'},
  }
  for axis, agent in zip(axes.flat, _PIPELINE):
    for config, style in styles.items():
      chars = sizes[config][agent]['chars']
      axis.plot(
          range(1, len(chars) + 1),
          chars,
          label=_CONFIG_LABELS[config],
          markersize=3,
          **style,
      )
    axis.set_title(f'{agent} (agent {_PIPELINE.index(agent) + 1} of 4)')
    axis.grid(alpha=0.3)
    axis.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
    axis.yaxis.set_major_formatter(
        matplotlib.ticker.FuncFormatter(lambda value, _: f'{value:,.0f}')
    )
  for axis in axes[1]:
    axis.set_xlabel('turn')
  for axis in axes[:, 0]:
    axis.set_ylabel('request size (characters of contents)')
  handles, labels = axes[0][0].get_legend_handles_labels()
  figure.legend(handles, labels, loc='lower center', ncol=3, frameon=False)
  figure.suptitle(
      'Request size per agent per turn, 4-agent SequentialAgent pipeline'
  )
  figure.tight_layout(rect=(0, 0.05, 1, 1))
  figure.savefig(path, dpi=110)
  pyplot.close(figure)


def _worker_args(settings: dict[str, Any]) -> list[str]:
  return [
      '--events',
      ','.join(map(str, settings['events'])),
      '--repeats',
      str(settings['repeats']),
      '--turns',
      str(settings['turns']),
      '--throughput-turns',
      str(settings['throughput_turns']),
      '--flat-events',
      ','.join(map(str, settings['flat_events'])),
      '--memory-events',
      str(settings['memory_events']),
      '--late-turn',
      str(settings['late_turn']),
      '--late-sessions',
      str(settings['late_sessions']),
      '--user-view-events',
      ','.join(map(str, settings['user_view_events'])),
      '--user-view-repeats',
      str(settings['user_view_repeats']),
      '--windows-turns',
      str(settings['windows_turns']),
      '--windows-repeats',
      str(settings['windows_repeats']),
      '--nested-turns',
      str(settings['nested_turns']),
      '--user-messages-events',
      ','.join(map(str, settings['user_messages_events'])),
      '--user-messages-repeats',
      str(settings['user_messages_repeats']),
      '--long-turns',
      ','.join(map(str, settings['long_turns'])),
      '--only',
      ','.join(settings['only']),
  ]


def run(args: argparse.Namespace) -> None:
  """Runs the rounds and writes the outputs."""
  started = time.perf_counter()
  settings = dict(_SMOKE if args.smoke else _FULL)
  if args.rounds:
    settings['rounds'] = args.rounds
  if args.long_turns:
    settings['long_turns'] = args.long_turns
  # In the worker's order, whatever order they were asked for in.
  settings['only'] = [name for name in MEASUREMENTS if name in args.only]
  plotted = 'request_size' in settings['only']
  if plotted:
    _ensure_matplotlib()
  pythons = {'upstream': _upstream_python(), 'fork': sys.executable}
  about = {
      side: _run_worker(python, ['--info'], args.pin)
      for side, python in pythons.items()
  }
  _check_sides(about['fork'], about['upstream'])

  runs: dict[str, list[dict[str, Any]]] = {'upstream': [], 'fork': []}
  worker_args = _worker_args(settings)
  for index in range(settings['rounds']):
    order = ['upstream', 'fork'] if index % 2 == 0 else ['fork', 'upstream']
    for side in order:
      round_started = time.perf_counter()
      runs[side].append(_run_worker(pythons[side], worker_args, args.pin))
      print(
          f'round {index + 1}/{settings["rounds"]} {side}:'
          f' {time.perf_counter() - round_started:.1f} s',
          file=sys.stderr,
      )

  summary = _summarise(runs, settings)
  wall_s = time.perf_counter() - started
  table = _table(summary, settings, about, wall_s)
  out = pathlib.Path(args.out)
  out.mkdir(parents=True, exist_ok=True)
  (out / 'results.json').write_text(
      json.dumps(
          {
              'settings': settings,
              'smoke': args.smoke,
              'wall_s': wall_s,
              'sides': about,
              'summary': summary,
              'rounds': runs,
          },
          indent=1,
      ),
      encoding='utf-8',
  )
  outputs = ['results.json', 'results.md']
  plot = '\n\n![request size](request_size.png)' if plotted else ''
  (out / 'results.md').write_text(
      f'# google-adk fork vs upstream benchmarks\n\n```\n{table}\n```{plot}\n',
      encoding='utf-8',
  )
  if plotted:
    _plot(summary, out / 'request_size.png')
    outputs.append('request_size.png')
  print(table)
  print(f'\nwrote {out}/{", ".join(outputs)}')


def main() -> None:
  parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  parser.add_argument(
      '--smoke',
      action='store_true',
      help='Tiny sizes and one round: checks that everything runs (CI).',
  )
  parser.add_argument(
      '--rounds',
      type=int,
      help=f'Rounds per side (default {_FULL["rounds"]}, smoke 1).',
  )
  parser.add_argument('--out', default=str(_DEFAULT_OUT), help='Output folder.')
  parser.add_argument(
      '--long-turns',
      metavar='T,T,...',
      type=lambda text: [int(turn) for turn in text.split(',') if turn],
      help='The turns long_session measures (default 10,50,100,200).',
  )
  parser.add_argument(
      '--only',
      metavar='NAME',
      action='append',
      help=(
          'Measure only NAME (repeat it or separate names with commas): '
          + ', '.join(MEASUREMENTS)
          + '. request_size.png is written only with request_size.'
      ),
  )
  parser.add_argument(
      '--pin',
      metavar='CPUS',
      help='Run the workers under `taskset -c CPUS` (e.g. 1).',
  )
  args = parser.parse_args()
  if args.only:
    args.only = [
        name for names in args.only for name in names.split(',') if name
    ]
    unknown = sorted(set(args.only) - set(MEASUREMENTS))
    if unknown:
      parser.error(
          f'unknown --only {", ".join(unknown)}; choose from'
          f' {", ".join(MEASUREMENTS)}'
      )
  else:
    args.only = list(MEASUREMENTS)
  if args.pin and not shutil.which('taskset'):
    parser.error('--pin needs taskset, which is not installed')
  try:
    run(args)
  except _BenchmarkError as error:
    print(f'error: {error}', file=sys.stderr)
    sys.exit(1)


if __name__ == '__main__':
  main()
