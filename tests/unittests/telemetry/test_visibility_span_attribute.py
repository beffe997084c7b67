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

"""The ``invoke_agent`` span carries the agent's effective visibility."""

from __future__ import annotations

from typing import Any
from typing import AsyncGenerator

from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.sequential_agent import SequentialAgent
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.adk.workflow import START
from google.adk.workflow import Workflow
from google.genai import types
from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
import pytest

pytestmark = pytest.mark.filterwarnings(
    'ignore:.*deprecated.*:DeprecationWarning'
)

_VISIBILITY_ATTRIBUTE = 'adk.experimental.agent.visibility'


class ScriptedLlm(BaseLlm):
  """Always answers with the same text."""

  model: str = 'scripted-llm'
  reply: str = 'done'

  async def generate_content_async(
      self, llm_request: LlmRequest, stream: bool = False
  ) -> AsyncGenerator[LlmResponse, None]:
    del llm_request, stream
    yield LlmResponse(
        content=types.ModelContent(parts=[types.Part(text=self.reply)])
    )


@pytest.fixture(name='spans')
def _spans_fixture() -> InMemorySpanExporter:
  """Collects finished spans from ADK's tracer.

  The global tracer provider can be set only once per process, so an SDK
  provider installed earlier is reused.
  """
  provider = trace.get_tracer_provider()
  if not isinstance(provider, TracerProvider):
    provider = TracerProvider()
    trace.set_tracer_provider(provider)
  provider = trace.get_tracer_provider()
  if not isinstance(provider, TracerProvider):
    pytest.skip('Another non-SDK tracer provider is installed globally.')
  exporter = InMemorySpanExporter()
  processor = SimpleSpanProcessor(exporter)
  provider.add_span_processor(processor)
  yield exporter
  # A processor cannot be detached, so it stops recording instead.
  processor.shutdown()


async def _run(root: Any, *, as_node: bool = False) -> None:
  if as_node:
    runner = InMemoryRunner(node=root, app_name='span_app')
  else:
    runner = InMemoryRunner(agent=root, app_name='span_app')
  session = await runner.session_service.create_session(
      app_name=runner.app_name, user_id='span_user'
  )
  async for _ in runner.run_async(
      user_id='span_user',
      session_id=session.id,
      new_message=types.UserContent(parts=[types.Part(text='hi')]),
  ):
    pass


def _visibility_by_agent(exporter: InMemorySpanExporter) -> dict[str, Any]:
  return {
      span.name.removeprefix('invoke_agent '): span.attributes.get(
          _VISIBILITY_ATTRIBUTE
      )
      for span in exporter.get_finished_spans()
      if span.name.startswith('invoke_agent ')
  }


@pytest.fixture(name='visibility_telemetry')
def _visibility_telemetry_fixture(monkeypatch: pytest.MonkeyPatch) -> None:
  monkeypatch.setenv('ADK_EXPERIMENTAL_TELEMETRY_FEATURES', 'agent_visibility')


def _pipeline() -> SequentialAgent:
  return SequentialAgent(
      name='span_pipeline',
      sub_agents=[
          LlmAgent(name='span_draft', model=ScriptedLlm()),
          LlmAgent(name='span_final', model=ScriptedLlm()),
      ],
  )


@pytest.mark.asyncio
async def test_attribute_is_off_without_experimental_telemetry(
    spans: InMemorySpanExporter, monkeypatch: pytest.MonkeyPatch
):
  monkeypatch.delenv('ADK_EXPERIMENTAL_TELEMETRY', raising=False)
  monkeypatch.delenv('ADK_EXPERIMENTAL_TELEMETRY_FEATURES', raising=False)

  await _run(_pipeline())

  assert _visibility_by_agent(spans) == {
      'span_pipeline': None,
      'span_draft': None,
      'span_final': None,
  }


@pytest.mark.asyncio
@pytest.mark.usefixtures('visibility_telemetry')
async def test_agent_tree_spans_carry_visibility(spans: InMemorySpanExporter):
  await _run(_pipeline())

  assert _visibility_by_agent(spans) == {
      'span_pipeline': 'user',
      'span_draft': 'internal',
      'span_final': 'user',
  }


@pytest.mark.asyncio
@pytest.mark.usefixtures('visibility_telemetry')
async def test_workflow_node_agent_spans_carry_visibility(
    spans: InMemorySpanExporter,
):
  await _run(
      Workflow(
          name='span_flow',
          edges=[(
              START,
              LlmAgent(name='span_classify', model=ScriptedLlm()),
              LlmAgent(name='span_answer', model=ScriptedLlm()),
          )],
      ),
      as_node=True,
  )

  assert _visibility_by_agent(spans) == {
      'span_classify': 'internal',
      'span_answer': 'user',
  }
