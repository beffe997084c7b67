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

"""The inference span builds the request's input messages only when captured.

The cases of the test function this change adds to upstream's
tests/unittests/telemetry/test_spans.py, runnable without upstream's
functional_test_helpers: an agent with one tool and a scripted model runs
through a Runner into in-memory exporters.
"""

from __future__ import annotations

from typing import AsyncGenerator

from google.adk.agents.llm_agent import LlmAgent
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.adk.telemetry import _experimental_semconv
from google.adk.telemetry import tracing
from google.genai import types
from opentelemetry.sdk._logs import LoggerProvider
from opentelemetry.sdk._logs.export import InMemoryLogRecordExporter
from opentelemetry.sdk._logs.export import SimpleLogRecordProcessor
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
import pytest

_INPUT_MESSAGES = 'gen_ai.input.messages'
_COMPLETION_DETAILS = 'gen_ai.client.inference.operation.details'


def lookup_order(order_id: str) -> dict[str, str]:
  """Looks an order up by its id."""
  return {'order_id': order_id, 'status': 'shipped'}


class _ScriptedLlm(BaseLlm):
  """Calls the tool on the user's message, then answers."""

  model: str = 'scripted-llm'

  async def generate_content_async(
      self, llm_request: LlmRequest, stream: bool = False
  ) -> AsyncGenerator[LlmResponse, None]:
    del stream
    if llm_request.contents[-1].parts[-1].function_response:
      part = types.Part(text='It has shipped.')
    else:
      call = types.FunctionCall(name='lookup_order', args={'order_id': '1'})
      part = types.Part(function_call=call)
    yield LlmResponse(content=types.ModelContent(parts=[part]))


def _install_telemetry(
    monkeypatch: pytest.MonkeyPatch,
) -> tuple[InMemorySpanExporter, InMemoryLogRecordExporter]:
  spans = InMemorySpanExporter()
  tracer_provider = TracerProvider()
  tracer_provider.add_span_processor(SimpleSpanProcessor(spans))
  monkeypatch.setattr(tracing, 'tracer', tracer_provider.get_tracer(__name__))
  logs = InMemoryLogRecordExporter()
  logger_provider = LoggerProvider()
  logger_provider.add_log_record_processor(SimpleLogRecordProcessor(logs))
  monkeypatch.setattr(
      tracing, 'otel_logger', logger_provider.get_logger(__name__)
  )
  return spans, logs


@pytest.mark.asyncio
@pytest.mark.parametrize(
    'capture_content, on_span, in_log',
    [
        ('no_content', False, False),
        ('span_only', True, False),
        ('event_only', False, True),
    ],
)
async def test_inference_input_messages_built_only_when_captured(
    monkeypatch: pytest.MonkeyPatch,
    capture_content: str,
    on_span: bool,
    in_log: bool,
):
  monkeypatch.setenv(
      'OTEL_SEMCONV_STABILITY_OPT_IN', 'gen_ai_latest_experimental'
  )
  monkeypatch.setenv(
      'OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT', capture_content
  )
  spans, logs = _install_telemetry(monkeypatch)
  converted = []
  to_input_messages = _experimental_semconv._to_input_messages

  def _converting(contents):
    converted.append(contents)
    return to_input_messages(contents)

  monkeypatch.setattr(_experimental_semconv, '_to_input_messages', _converting)
  agent = LlmAgent(name='desk', model=_ScriptedLlm(), tools=[lookup_order])
  runner = InMemoryRunner(agent=agent, app_name='app')
  session = await runner.session_service.create_session(
      app_name='app', user_id='user'
  )

  async for _ in runner.run_async(
      user_id='user',
      session_id=session.id,
      new_message=types.UserContent('Where is order 1?'),
  ):
    pass

  inference_spans = [
      span
      for span in spans.get_finished_spans()
      if span.name.startswith('generate_content')
  ]
  details_logs = [
      log.log_record
      for log in logs.get_finished_logs()
      if log.log_record.event_name == _COMPLETION_DETAILS
  ]
  assert len(inference_spans) == len(details_logs) == 2
  for span, record in zip(inference_spans, details_logs):
    assert (_INPUT_MESSAGES in span.attributes) == on_span
    assert (_INPUT_MESSAGES in record.attributes) == in_log
  # Built once per model call when recorded, and not at all otherwise.
  assert len(converted) == (2 if on_span or in_log else 0)
