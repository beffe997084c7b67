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

"""Tests the `LlmAgent.include_sources` field, its config, and its checks."""

from __future__ import annotations

from collections.abc import AsyncGenerator
import json
from pathlib import Path
import textwrap
from typing import Any
import warnings

from google.adk.agents import config_agent_utils
from google.adk.agents.llm_agent import LlmAgent
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.adk.workflow import Workflow
from google.genai import types
from pydantic import Field
import pytest


class _EchoModel(BaseLlm):
  """Replies with a fixed text and records every request."""

  model: str = 'echo'
  reply: str = 'ok'
  requests: list[LlmRequest] = Field(default_factory=list)

  async def generate_content_async(
      self, llm_request: LlmRequest, stream: bool = False
  ) -> AsyncGenerator[LlmResponse, None]:
    self.requests.append(llm_request.model_copy(deep=True))
    yield LlmResponse(
        content=types.Content(role='model', parts=[types.Part(text=self.reply)])
    )


def _request_texts(llm_request: LlmRequest) -> list[str]:
  return [
      part.text
      for content in llm_request.contents
      for part in content.parts or []
      if part.text
  ]


async def _run(root: Any, message: str) -> None:
  if isinstance(root, Workflow):
    runner = InMemoryRunner(node=root, app_name='test_app')
  else:
    runner = InMemoryRunner(agent=root, app_name='test_app')
  session = await runner.session_service.create_session(
      app_name='test_app', user_id='user'
  )
  async for _ in runner.run_async(
      user_id='user',
      session_id=session.id,
      new_message=types.Content(role='user', parts=[types.Part(text=message)]),
  ):
    pass


class TestValidation:

  def test_defaults_to_none(self):
    assert LlmAgent(name='agent').include_sources is None

  def test_accepts_names_and_keeps_duplicates(self):
    agent = LlmAgent(
        name='agent', include_sources=['user', 'self', 'scout', 'user']
    )

    assert agent.include_sources == ['user', 'self', 'scout', 'user']

  def test_accepts_a_tuple_as_a_list(self):
    agent = LlmAgent(name='agent', include_sources=('user', 'self'))

    assert agent.include_sources == ['user', 'self']

  def test_empty_list_points_to_none(self):
    with pytest.raises(ValueError, match=r'include_sources=None'):
      LlmAgent(name='agent', include_sources=[])

  def test_bare_string_is_not_split_into_letters(self):
    with pytest.raises(ValueError, match=r"include_sources=\['user'\]"):
      LlmAgent(name='agent', include_sources='user')

  @pytest.mark.parametrize('entry', ['', '   ', 7, None])
  def test_entries_must_be_non_empty_strings(self, entry):
    with pytest.raises(ValueError, match='non-empty strings'):
      LlmAgent(name='agent', include_sources=['user', entry])

  def test_other_types_are_rejected(self):
    with pytest.raises(ValueError, match='list of source names'):
      LlmAgent(name='agent', include_sources={'user': True})

  def test_assignment_is_validated(self):
    agent = LlmAgent(name='agent')

    with pytest.raises(ValueError, match=r"include_sources=\['user'\]"):
      agent.include_sources = 'user'
    with pytest.raises(ValueError, match=r'include_sources=None'):
      agent.include_sources = []
    assert agent.include_sources is None

    agent.include_sources = ('user',)
    assert agent.include_sources == ['user']
    agent.include_sources = None
    assert agent.include_sources is None

  def test_clone_copies_the_list(self):
    agent = LlmAgent(name='agent', include_sources=['user'])

    clone = agent.clone()

    assert clone.include_sources == ['user']
    assert clone.include_sources is not agent.include_sources

  def test_include_contents_accepts_current(self):
    assert (
        LlmAgent(name='agent', include_contents='current').include_contents
        == 'current'
    )

  def test_include_contents_rejects_unknown_modes(self):
    with pytest.raises(ValueError):
      LlmAgent(name='agent', include_contents='latest')


class TestConfig:

  def _write(self, tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(body))
    return str(path)

  def test_yaml_sets_include_sources_and_current(self, tmp_path):
    path = self._write(
        tmp_path,
        'booker.yaml',
        """\
        name: booker
        model: gemini-2.5-flash
        instruction: Book it.
        include_contents: current
        include_sources:
          - user
          - self
        """,
    )

    agent = config_agent_utils.from_config(path)

    assert isinstance(agent, LlmAgent)
    assert agent.include_sources == ['user', 'self']
    assert agent.include_contents == 'current'

  def test_yaml_bare_string_is_a_clear_error(self, tmp_path):
    path = self._write(
        tmp_path,
        'booker.yaml',
        """\
        name: booker
        model: gemini-2.5-flash
        instruction: Book it.
        include_sources: user
        """,
    )

    with pytest.raises(ValueError, match=r"include_sources=\['user'\]"):
      config_agent_utils.from_config(path)

  @pytest.mark.asyncio
  async def test_yaml_pipeline_filters_the_booker(self, tmp_path):
    self._write(
        tmp_path,
        'classifier.yaml',
        """\
        name: classifier
        model: gemini-2.5-flash
        instruction: Classify.
        """,
    )
    self._write(
        tmp_path,
        'booker.yaml',
        """\
        name: booker
        model: gemini-2.5-flash
        instruction: Book it.
        include_sources: [user, self]
        """,
    )
    root_path = self._write(
        tmp_path,
        'root.yaml',
        """\
        agent_class: SequentialAgent
        name: pipeline
        sub_agents:
          - config_path: classifier.yaml
          - config_path: booker.yaml
        """,
    )
    with warnings.catch_warnings():
      warnings.simplefilter('ignore', DeprecationWarning)
      root = config_agent_utils.from_config(root_path)
    classifier, booker = root.sub_agents
    classifier.model = _EchoModel(reply='CLASSIFIER-booking')
    booker.model = booker_model = _EchoModel(reply='BOOKER-done')

    await _run(root, 'USER-1 table')

    assert _request_texts(booker_model.requests[0]) == ['USER-1 table']

  def test_shipped_json_schema_lists_both(self):
    from google.adk.agents import llm_agent

    schema_path = (
        Path(llm_agent.__file__).parent / 'config_schemas' / 'AgentConfig.json'
    )
    schema = json.loads(schema_path.read_text())
    properties = schema['$defs']['LlmAgentConfig']['properties']

    assert properties['include_contents']['enum'] == [
        'default',
        'current',
        'none',
    ]
    assert properties['include_sources']['anyOf'][0] == {
        'items': {'type': 'string'},
        'type': 'array',
    }
