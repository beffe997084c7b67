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

"""The inference span and log carry the request's content only when captured.

Without content capture the span and the log record carry the tool
definitions only, as before the change, which now skips building the input
messages; with capture they carry the whole history, as before.
"""

from __future__ import annotations

import json
from typing import AsyncGenerator

from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.run_config import RunConfig
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.adk.telemetry import _experimental_semconv
from google.adk.telemetry import tracing
from google.adk.telemetry.context import ContentCapturingMode
from google.adk.telemetry.context import TelemetryConfig
from google.genai import types
from opentelemetry.sdk._logs import LoggerProvider
from opentelemetry.sdk._logs.export import InMemoryLogExporter
from opentelemetry.sdk._logs.export import SimpleLogRecordProcessor
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from pydantic import Field
import pytest

pytestmark = pytest.mark.filterwarnings(
    'ignore:.*deprecated.*:DeprecationWarning',
    'ignore:Use InMemoryLogRecordExporter.*:DeprecationWarning',
)

_INPUT_MESSAGES = 'gen_ai.input.messages'
_SYSTEM_INSTRUCTIONS = 'gen_ai.system_instructions'
_TOOL_DEFINITIONS = 'gen_ai.tool.definitions'
_FIRST_QUESTION = 'Where is order 1234?'


def lookup_order(order_id: str) -> dict[str, str]:
  """Looks an order up by its id."""
  return {'order_id': order_id, 'status': 'shipped'}


class ScriptedLlm(BaseLlm):
  """Calls the tool on a user's message, then answers; keeps the requests."""

  model: str = 'scripted-llm'
  requests: list[LlmRequest] = Field(default_factory=list)

  async def generate_content_async(
      self, llm_request: LlmRequest, stream: bool = False
  ) -> AsyncGenerator[LlmResponse, None]:
    del stream
    self.requests.append(llm_request)
    last = llm_request.contents[-1].parts[-1]
    if last.function_response:
      part = types.Part(text='It has shipped.')
    else:
      part = types.Part(
          function_call=types.FunctionCall(
              name='lookup_order', args={'order_id': '1234'}
          )
      )
    yield LlmResponse(content=types.ModelContent(parts=[part]))


@pytest.fixture(name='telemetry')
def _telemetry_fixture(monkeypatch: pytest.MonkeyPatch):
  """Routes ADK's tracer and logger to in-memory exporters."""
  spans = InMemorySpanExporter()
  tracer_provider = TracerProvider()
  tracer_provider.add_span_processor(SimpleSpanProcessor(spans))
  logs = InMemoryLogExporter()
  logger_provider = LoggerProvider()
  logger_provider.add_log_record_processor(SimpleLogRecordProcessor(logs))
  monkeypatch.setattr(
      tracing, 'tracer', tracer_provider.get_tracer('test_tracer')
  )
  monkeypatch.setattr(
      tracing, 'otel_logger', logger_provider.get_logger('test_logger')
  )
  yield spans, logs
  tracer_provider.shutdown()
  logger_provider.shutdown()


async def _run_two_turns(mode: ContentCapturingMode) -> ScriptedLlm:
  model = ScriptedLlm()
  agent = LlmAgent(
      name='assistant',
      model=model,
      instruction='Answer questions about orders.',
      tools=[lookup_order],
  )
  runner = InMemoryRunner(agent=agent, app_name='app')
  session = await runner.session_service.create_session(
      app_name='app', user_id='user'
  )
  run_config = RunConfig(
      telemetry=TelemetryConfig(
          genai_semconv_stability_opt_in='experimental',
          capture_message_content=mode,
      )
  )
  for text in (_FIRST_QUESTION, 'And order 5678?'):
    async for _ in runner.run_async(
        user_id='user',
        session_id=session.id,
        new_message=types.UserContent(parts=[types.Part(text=text)]),
        run_config=run_config,
    ):
      pass
  await runner.close()
  return model


def _inference_span_attributes(spans: InMemorySpanExporter) -> list[dict]:
  return [
      dict(span.attributes or {})
      for span in spans.get_finished_spans()
      if span.name == 'generate_content scripted-llm'
  ]


def _completion_log_attributes(logs: InMemoryLogExporter) -> list[dict]:
  return [
      dict(record.log_record.attributes or {})
      for record in logs.get_finished_logs()
      if record.log_record.event_name
      == _experimental_semconv.COMPLETION_DETAILS_EVENT_NAME
  ]


@pytest.mark.asyncio
async def test_without_capture_only_tool_definitions_are_recorded(telemetry):
  spans, logs = telemetry

  model = await _run_two_turns(ContentCapturingMode.NO_CONTENT)

  span_attributes = _inference_span_attributes(spans)
  log_attributes = _completion_log_attributes(logs)
  assert len(span_attributes) == len(log_attributes) == len(model.requests) == 4
  for on_span, in_log in zip(span_attributes, log_attributes):
    assert [d['name'] for d in json.loads(on_span[_TOOL_DEFINITIONS])] == [
        'lookup_order'
    ]
    assert [d['name'] for d in in_log[_TOOL_DEFINITIONS]] == ['lookup_order']
    for attributes in (on_span, in_log):
      assert _INPUT_MESSAGES not in attributes
      assert _SYSTEM_INSTRUCTIONS not in attributes


@pytest.mark.parametrize(
    'mode, on_span, in_log',
    [
        (ContentCapturingMode.SPAN_ONLY, True, False),
        (ContentCapturingMode.EVENT_ONLY, False, True),
        (ContentCapturingMode.SPAN_AND_EVENT, True, True),
    ],
)
@pytest.mark.asyncio
async def test_captured_content_carries_the_whole_history(
    telemetry, mode: ContentCapturingMode, on_span: bool, in_log: bool
):
  spans, logs = telemetry

  await _run_two_turns(mode)

  last_on_span = _inference_span_attributes(spans)[-1]
  last_in_log = _completion_log_attributes(logs)[-1]
  for attributes, captured in ((last_on_span, on_span), (last_in_log, in_log)):
    if not captured:
      assert _INPUT_MESSAGES not in attributes
      continue
    messages = attributes[_INPUT_MESSAGES]
    text = messages if isinstance(messages, str) else json.dumps(messages)
    # The last request holds both turns and the tool's answer.
    for said in (_FIRST_QUESTION, 'And order 5678?', 'shipped'):
      assert said in text
    assert _SYSTEM_INSTRUCTIONS in attributes


def _count_calls(monkeypatch: pytest.MonkeyPatch, name: str) -> list[object]:
  """Counts calls of a converter the request attributes are built with."""
  calls: list[object] = []
  convert = getattr(_experimental_semconv, name)

  def counting(value, *args, **kwargs):
    calls.append(value)
    return convert(value, *args, **kwargs)

  monkeypatch.setattr(_experimental_semconv, name, counting)
  return calls


@pytest.mark.asyncio
async def test_without_capture_the_history_is_not_converted(
    telemetry, monkeypatch: pytest.MonkeyPatch
):
  # What is dropped unread is not built: converting the whole history (and
  # the system instruction) is the cost that grows with the session.
  del telemetry
  history = _count_calls(monkeypatch, '_to_input_messages')
  instructions = _count_calls(monkeypatch, '_to_system_instructions')

  model = await _run_two_turns(ContentCapturingMode.NO_CONTENT)

  assert len(model.requests) == 4
  assert history == []
  assert instructions == []


@pytest.mark.asyncio
async def test_with_capture_the_history_is_converted_for_each_request(
    telemetry, monkeypatch: pytest.MonkeyPatch
):
  del telemetry
  history = _count_calls(monkeypatch, '_to_input_messages')

  model = await _run_two_turns(ContentCapturingMode.SPAN_ONLY)

  assert len(history) == len(model.requests) == 4
