import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GlobalRegistrator } from '@happy-dom/global-registrator';

GlobalRegistrator.register({ url: 'http://127.0.0.1:8080/' });
const { observeMessages } = await import('./observe.js');

const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A finished answer's element, and its pass: 40 steps of a millisecond each on the fake clock. */
function longPass(t: { mock: { method: typeof import('node:test').mock.method } }) {
  let now = 0;
  t.mock.method(performance, 'now', () => now);
  const message = document.createElement('div');
  message.id = 'message-m1';
  message.innerHTML = '<div class="chat-assistant"></div>';
  const counted = { steps: 0 };
  function* pass(): Generator<void> {
    for (let i = 0; i < 40; i++) {
      now += 1;
      counted.steps++;
      yield;
    }
  }
  return { message, pass, counted };
}

const microtasks = async (n = 10) => {
  for (let i = 0; i < n; i++) await Promise.resolve();
};

test("told a finished answer is done, its long pass begins at once, in slices of half a frame, the page's turn between them, and ends", async (t) => {
  const { message, pass, counted } = longPass(t);
  const stop = new AbortController();
  const schedule = observeMessages(
    () => pass(),
    stop.signal,
    () => 'now',
  );
  document.body.append(message);
  schedule(message); // the hub's word that the answer is done
  // The first slice at once (before the page paints), no longer than half a frame; the next one
  // not before the page has had a task of its own.
  await microtasks();
  assert.ok(counted.steps > 0 && counted.steps <= 9, `${counted.steps} steps in the first slice`);
  const first = counted.steps;
  await microtasks();
  assert.equal(counted.steps, first, 'the next slice ran without leaving the task');
  for (let task = 0; task < 10 && counted.steps < 40; task++) await nextTask();
  assert.equal(counted.steps, 40);
  stop.abort();
  message.remove();
});

test("the page's own change to a finished answer is passed over in a task of its own, not in the page's", async (t) => {
  const { message, pass, counted } = longPass(t);
  const stop = new AbortController();
  observeMessages(
    () => pass(),
    stop.signal,
    () => 'now',
  );
  document.body.append(message); // as Open WebUI draws it: its task may have spent its share
  await microtasks();
  assert.equal(counted.steps, 0, 'passed over in the task of the page change');
  for (let task = 0; task < 10 && counted.steps < 40; task++) await nextTask();
  assert.equal(counted.steps, 40);
  stop.abort();
  message.remove();
});

test("a finished answer's pass goes before a chat's pass begun in idle time, and that one ends after it", async (t) => {
  let now = 0; // a fake clock: each step of a pass takes a millisecond
  t.mock.method(performance, 'now', () => now);
  const message = (id: string): HTMLElement => {
    const element = document.createElement('div');
    element.id = `message-${id}`;
    element.innerHTML = '<div class="chat-assistant"></div>';
    document.body.append(element);
    return element;
  };
  const [opened, finished] = [message('opened'), message('finished')];
  const ran: string[] = [];
  function* pass(element: HTMLElement, steps: number): Generator<void> {
    for (let i = 0; i < steps; i++) {
      now += 1;
      ran.push(element.id);
      yield;
    }
  }
  const stop = new AbortController();
  const schedule = observeMessages(
    (element) => pass(element, element === finished ? 3 : 40),
    stop.signal,
    (element) => (element === finished ? 'now' : 'idle'),
  );
  schedule(opened);
  for (let task = 0; task < 10 && !ran.includes(opened.id); task++) await nextTask();
  assert.ok(ran.length > 0 && ran.length < 40, `the chat's pass cut after ${ran.length} steps`);
  const before = ran.length;
  schedule(finished);
  for (let task = 0; task < 20 && ran.filter((id) => id === opened.id).length < 40; task++) await nextTask();
  assert.deepEqual(ran.slice(before, before + 3), [finished.id, finished.id, finished.id]);
  assert.equal(ran.filter((id) => id === opened.id).length, 40);
  stop.abort();
});
