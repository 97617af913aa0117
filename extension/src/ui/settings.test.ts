import assert from 'node:assert/strict';
import { test } from 'node:test';

import { parseSettings } from './settings.js';

const DEFAULTS = { shown: 5, showRetrieved: true, keepOpenWebuiStrip: false };

test('stored settings are read back', () => {
  const chosen = { shown: 0, showRetrieved: false, keepOpenWebuiStrip: true };
  assert.deepEqual(parseSettings(JSON.stringify(chosen)), chosen);
});

test('nothing stored, not JSON, or not an object: the defaults', () => {
  for (const stored of [null, '', '{', 'null', '[]', '42'])
    assert.deepEqual(parseSettings(stored), DEFAULTS, String(stored));
});

test('each value out of its range falls back alone; inherited names are not read', () => {
  assert.deepEqual(parseSettings('{"shown": 7, "showRetrieved": "no", "keepOpenWebuiStrip": true}'), {
    ...DEFAULTS,
    keepOpenWebuiStrip: true,
  });
  assert.deepEqual(parseSettings('{"shown": "3", "__proto__": {"showRetrieved": false}}'), DEFAULTS);
});
