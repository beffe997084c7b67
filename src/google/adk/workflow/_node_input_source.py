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

"""Which node produced a workflow node's input (``NodeInfo.input_from``).

A ``single_turn`` LlmAgent node receives its input as a user-authored event
stamped with the node's path. Without ``input_from`` the event does not say
who produced the input: the user, a predecessor node, or the code that called
``ctx.run_node``.

The workflow engine knows it when it triggers a node: ``Trigger.source`` is
the path of the node whose output the input is, and the workflow's context
keeps it for the child it starts (``Context._child_input_sources``). The
input is attributed to:

1. the node recorded on its trigger (an edge from it, or a route it chose);
2. through ``START``, which hands on the workflow's own input, whatever
   produced that input, one level up; at the root, no node (None);
3. for a child that no workflow triggered (``ctx.run_node``), the node that
   ran it: that node's code computed the input.

A ``JoinNode``'s successor is given the join's output, so its input is from
the join. Nothing here compares content: a parallel branch that finished in
between, or a node whose output reads like the user's message, cannot be
taken for the producer. A resumed run gives the same paths: the workflow
replays its graph from ``START`` through the runs it recovers from the
session, with their run ids.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
  from ..agents.context import Context


def node_input_from(ctx: Context) -> str | None:
  """Returns the path of the node whose output is the node's input.

  Args:
    ctx: The context of the node the input is for.

  Returns:
    The producing node's path, or None when the input is the outermost
    workflow's own input.
  """
  while True:
    parent = ctx.parent_ctx
    if parent is None or not parent.node_path:
      return None
    sources = parent._child_input_sources
    if ctx.node_path not in sources:
      # No workflow triggered this node: the parent ran it with ctx.run_node.
      return parent.node_path
    source = sources[ctx.node_path]
    if source is not None:
      return source
    ctx = parent
