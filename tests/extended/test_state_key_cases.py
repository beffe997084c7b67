"""ADK-D101 cases beyond the PR's tests: parallel branches, persisted keys,
transfer."""

from __future__ import annotations

from _pr_tests import state_keys
from google.adk.agents.parallel_agent import ParallelAgent
from google.adk.agents.sequential_agent import SequentialAgent
from google.adk.diagnostics import Severity

_agent = state_keys._agent
_composite = state_keys._composite
_found = state_keys._found
_pipeline = state_keys._pipeline


def test_a_parallel_sibling_does_not_run_before_but_the_next_step_is_fine():
  both = _composite(
      ParallelAgent,
      'both',
      _agent('left', output_key='fact'),
      _agent('right', 'Use {fact}.'),
  )
  root = _composite(
      SequentialAgent, 'pipeline', both, _agent('presenter', 'Show {fact}.')
  )

  assert [(d.agent, d.severity) for d in _found(root)] == [
      ('right', Severity.WARNING)
  ]


def test_keys_kept_across_sessions_are_info():
  found = _found(_pipeline('Greet {user:name} of {app:brand}.'))

  assert [(d.severity, d.message.split("'")[3]) for d in found] == [
      (Severity.INFO, 'user:name'),
      (Severity.INFO, 'app:brand'),
  ]


def test_a_transfer_target_reading_its_parents_key_is_info():
  coordinator = _agent(
      'coordinator',
      output_key='summary',
      sub_agents=[_agent('helper', 'Use {summary}.')],
  )

  [found] = _found(coordinator)

  assert (found.agent, found.severity) == ('helper', Severity.INFO)
