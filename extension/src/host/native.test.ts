import assert from 'node:assert/strict';
import { test } from 'node:test';

import { displayedName } from './native.js';

test('a name is shown as Open WebUI shows it on its button: URLs as their domain, long names cut', () => {
  assert.equal(displayedName('https://www.example.org/a/b?c'), 'example.org');
  assert.equal(displayedName('rapport_2024.pdf'), 'rapport_2024.pdf');
  assert.equal(displayedName('Politique de sécurité – édition 2024.md'), 'Politique de sé...on 2024.md');
  assert.equal(displayedName('%3Cb%3Ebold'), '<b>bold');
});

test('a name starting or ending with whitespace reads as the button text does, trimmed after the cut', () => {
  // 0.6 and 0.7 draw these buttons before all are in place: such names were not found.
  assert.equal(displayedName('\tjavascript:window.__owc_pwned=1'), 'javascript:win...wc_pwned=1');
  assert.equal(displayedName('   short  '), 'short');
});
