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

"""Builds request histories with whichever google.adk this interpreter has.

Reads a JSON list of requests (events as dicts plus the arguments of
`_get_contents`) on stdin and prints, as JSON, each request's contents from
`_get_contents` and from `_get_current_turn_contents`, every content dumped
twice: with all fields, and with only the fields set. The test runs it under
pristine upstream and compares with the fork's in-process results. It imports
nothing from the fork, so upstream can run it as it is.
"""

from __future__ import annotations

import json
import logging
import sys
from typing import Any


def build(request: dict[str, Any]) -> dict[str, Any]:
  from google.adk.events.event import Event
  from google.adk.flows.llm_flows.context import _contents
  from google.genai import types

  events = [Event.model_validate(event) for event in request['events']]
  user_content = request['user_content']
  kwargs = {
      'preserve_function_call_ids': request['preserve_function_call_ids'],
      'isolation_scope': request['isolation_scope'],
      'node_path': request['node_path'],
      'is_single_turn': request['is_single_turn'],
      'user_content': (
          types.Content.model_validate(user_content) if user_content else None
      ),
      'include_thoughts_from_other_agents': request[
          'include_thoughts_from_other_agents'
      ],
  }
  args = (request['branch'], events, request['agent_name'])

  def dump(contents: list[Any]) -> list[list[str]]:
    return [
        [content.model_dump_json(), content.model_dump_json(exclude_unset=True)]
        for content in contents
    ]

  return {
      'history': dump(_contents._get_contents(*args, **kwargs)),
      'current_turn': dump(
          _contents._get_current_turn_contents(*args, **kwargs)
      ),
  }


def main() -> None:
  logging.disable(logging.WARNING)
  requests = json.load(sys.stdin)
  print(json.dumps([build(request) for request in requests]))


if __name__ == '__main__':
  main()
