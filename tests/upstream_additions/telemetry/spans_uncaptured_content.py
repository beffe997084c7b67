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

"""Test functions added to upstream's test_spans.py.

`adkfork export` appends what follows the imports to upstream's
tests/unittests/telemetry/test_spans.py, which already imports
`GEN_AI_INPUT_MESSAGES` and `pytest`; the imports it lacks go after its last
import. Upstream's functional_test_helpers.py, beside test_spans.py, runs the
canonical agent (one tool, two model calls) through a Runner into in-memory
exporters.
"""

from google.adk.telemetry import _experimental_semconv
from opentelemetry.sdk._logs.export import InMemoryLogRecordExporter
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.semconv._incubating.attributes.gen_ai_attributes import GEN_AI_INPUT_MESSAGES
import pytest

from .functional_test_helpers import build_test_runner
from .functional_test_helpers import CAPTURE_CONTENT
from .functional_test_helpers import EXPERIMENTAL_OPT_IN
from .functional_test_helpers import GEN_AI_COMPLETION_DETAILS_EVENT
from .functional_test_helpers import install_telemetry
from .functional_test_helpers import OTEL_OPT_IN
from .functional_test_helpers import run_agent_scenario


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
  """Without content capture the request history is never converted."""
  monkeypatch.setenv(OTEL_OPT_IN, EXPERIMENTAL_OPT_IN)
  monkeypatch.setenv(CAPTURE_CONTENT, capture_content)
  spans = InMemorySpanExporter()
  logs = InMemoryLogRecordExporter()
  install_telemetry(monkeypatch, spans, logs, InMemoryMetricReader())
  converted = []
  to_input_messages = _experimental_semconv._to_input_messages

  def _converting(contents):
    converted.append(contents)
    return to_input_messages(contents)

  monkeypatch.setattr(_experimental_semconv, '_to_input_messages', _converting)

  await run_agent_scenario(build_test_runner())

  inference_spans = [
      span
      for span in spans.get_finished_spans()
      if span.name.startswith('generate_content')
  ]
  details_logs = [
      log.log_record
      for log in logs.get_finished_logs()
      if log.log_record.event_name == GEN_AI_COMPLETION_DETAILS_EVENT
  ]
  assert len(inference_spans) == len(details_logs) == 2
  for span, record in zip(inference_spans, details_logs):
    assert (GEN_AI_INPUT_MESSAGES in span.attributes) == on_span
    assert (GEN_AI_INPUT_MESSAGES in record.attributes) == in_log
  # Built once per model call when recorded, and not at all otherwise.
  assert len(converted) == (2 if on_span or in_log else 0)
