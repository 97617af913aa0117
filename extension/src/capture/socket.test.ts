import assert from 'node:assert/strict';
import { test } from 'node:test';

import { linkMarkers } from '../core/markers.js';
import { routeEvent, routeText } from './events.js';
import { createHub, type Hub } from './hub.js';
import { createPacketReader } from './socket.js';

/** A socket.io `events` packet as Open WebUI's python-socketio writes it. */
const packet = (data: unknown, type = 'chat:completion'): string =>
  `42${JSON.stringify(['events', { chat_id: 'c1', message_id: 'm1', data: { type, data } }])}`;
const delta = (text: string) =>
  packet({ type: 'response.output_text.delta', item_id: 'msg_1', delta: text }, 'response:completion');
const soFar = (text: string) => packet({ content: text });
// LiteLLM's chunk for one of Claude's citations, after the text it supports
const citation = (title: string) =>
  packet({
    object: 'chat.completion.chunk',
    choices: [
      {
        index: 0,
        delta: {
          content: '',
          provider_specific_fields: {
            citation: { type: 'char_location', cited_text: 'q', document_index: title.length, document_title: title },
          },
        },
      },
    ],
  });
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

async function read(packets: string[]): Promise<Hub> {
  const hub = createHub(() => 'en');
  const reader = createPacketReader(
    (e) => routeEvent(hub, e as never, () => {}),
    () => {},
    (e) => routeText(hub, e as never),
  );
  packets.forEach(reader);
  await tick();
  return hub;
}

/** The answer's text each citation's button follows, as placed against the whole answer. */
function cited(hub: Hub, answer: string): string[] {
  return linkMarkers(answer, hub.citations('m1').citations).map((span) => answer.slice(0, span.end));
}

// Open WebUI 0.11 and 0.12 stream pieces of the text; 0.6 to 0.10 send the answer so far at every token.
const STREAMS = {
  'piece by piece (0.11, 0.12)': [
    delta('Revenue grew '),
    delta('by 8 %'),
    citation('Report'),
    delta(', rec'),
    delta('ords'),
    citation('Policy'),
    delta(' kept.'),
  ],
  'whole at every token (0.6 to 0.10)': [
    soFar('Revenue'),
    soFar('Revenue grew by 8 %'),
    citation('Report'),
    soFar('Revenue grew by 8 %, records'),
    citation('Policy'),
  ],
};

for (const [how, packets] of Object.entries(STREAMS)) {
  test(`a citation placed by position gets the text streamed before it, ${how}`, async () => {
    const hub = await read(packets);
    assert.deepEqual(cited(hub, 'Revenue grew by 8 %, records kept.'), [
      'Revenue grew by 8 %',
      'Revenue grew by 8 %, records',
    ]);
  });
}

test('text is not read for any other packet, and not kept past the end of an answer', async () => {
  const hub = await read([
    delta('Adults need'),
    packet({ object: 'chat.completion.chunk', citations: ['https://a.example/'], choices: [] }),
    packet({ done: true, content: 'Adults need' }),
    delta('Next answer'),
    citation('Report'),
  ]);
  assert.equal(hub.get('m1')!.accumulator.text(), 'Next answer');
});

test("a packet is only queued in the socket's own message handler: read in a later task", async () => {
  // The page's long-frame test counts the socket handler's time as Open WebUI's (its handler runs
  // inside ours): that holds only while nothing of ours is parsed there.
  const read: unknown[] = [];
  const reader = createPacketReader(
    (e) => read.push(e),
    () => {},
    (e) => read.push(e),
  );
  reader(packet({ object: 'chat.completion', citations: ['https://a.example/'], choices: [] }));
  reader(citation('Report'));
  assert.equal(read.length, 0);
  await tick();
  assert.equal(read.length, 2);
});

test('an answer asked or streaming while the socket was closed and opened again is known to have lost what came meanwhile', async () => {
  const hub = createHub(() => 'en');
  const reader = createPacketReader(
    (e) => routeEvent(hub, e as never, () => {}),
    () => {},
    (e) => routeText(hub, e as never),
    { reconnected: () => hub.reconnected() },
  );
  const open = (sid: string) => `0{"sid":"${sid}","upgrades":[],"pingInterval":25000,"pingTimeout":20000}`;
  const about = (id: string, data: unknown) =>
    `42${JSON.stringify(['events', { chat_id: 'c1', message_id: id, data: { type: 'chat:completion', data } }])}`;
  const done = (id: string) => about(id, { done: true, content: 'Revenue grew.' });
  // m1 asked, its first chunk (Azure's `delta.context`, its sources) sent while the socket was down;
  // m0 finished before; m2 asked only after the new connection.
  hub.asked('m0');
  hub.asked('m1');
  for (const packet of [open('a'), '40{"sid":"x"}', done('m0'), open('b'), '40{"sid":"y"}']) reader(packet);
  await tick();
  hub.asked('m2');
  for (const packet of [delta('Revenue grew.'), done('m1'), done('m2')]) reader(packet);
  await tick();
  assert.deepEqual(
    ['m0', 'm1', 'm2'].map((id) => hub.view(id)?.interrupted),
    [false, true, false],
  );
});
