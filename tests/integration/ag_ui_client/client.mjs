// Plays the user of tests/integration/test_ag_ui_client.py with @ag-ui/client:
// runs each turn against the fork's AG-UI endpoint, answers the client-side
// tool the assistant calls, and prints (one JSON document on stdout) every
// event as it arrived and the messages the client rebuilt.
//
// Usage: node client.mjs <endpoint url> <turn text>...
import { HttpAgent } from '@ag-ui/client';

const CLIENT_TOOL = 'ask_user_to_confirm';
const [url, ...turns] = process.argv.slice(2);
const started = Date.now();
const agent = new HttpAgent({ url, threadId: 'thread-ag-ui-client' });
const events = [];
const runs = [];
let run = 0;

// The messages as the live events built them, just before the run's
// MESSAGES_SNAPSHOT replaces them (the run's final messages without one).
let live = null;
const subscriber = {
  onEvent({ event }) {
    events.push({ run: `run-${run}`, at: Date.now() - started, ...event });
  },
  onMessagesSnapshotEvent({ messages }) {
    live = structuredClone(messages);
  },
};

async function runOnce() {
  run += 1;
  live = null;
  const result = await agent.runAgent({ runId: `run-${run}` }, subscriber);
  runs.push({
    runId: `run-${run}`,
    // A run that ends waiting for the client sends no snapshot.
    live: live ?? structuredClone(agent.messages),
    messages: structuredClone(agent.messages),
    newMessageIds: result.newMessages.map((message) => message.id),
  });
}

function waitingClientCalls() {
  const answered = new Set(
    agent.messages.filter((m) => m.role === 'tool').map((m) => m.toolCallId),
  );
  return agent.messages
    .flatMap((m) => (m.role === 'assistant' && m.toolCalls) || [])
    .filter((call) => call.function.name === CLIENT_TOOL && !answered.has(call.id));
}

for (const [index, text] of turns.entries()) {
  agent.addMessage({ id: `typed-${index}`, role: 'user', content: text });
  await runOnce();
  for (const call of waitingClientCalls()) {
    agent.addMessage({
      id: `answer-${call.id}`,
      role: 'tool',
      toolCallId: call.id,
      content: JSON.stringify({ answer: 'yes' }),
    });
  }
  await runOnce();
}

process.stdout.write(JSON.stringify({ events, runs, messages: agent.messages }));
