import assert from 'node:assert/strict';
import { test } from 'node:test';

import { footnoteBlock, opensFootnoteDefinition } from './footnotes.js';

test('the definitions closing an answer, with their quote, title and link', () => {
  const text =
    'Answer[^1] and more[^2].\n\n[^1]: A quote. [Title one](https://a.example/1)\n\n[^2]: [Two](https://b.example/)\n';
  const block = footnoteBlock(text)!;
  assert.equal(
    text.slice(block.start),
    '[^1]: A quote. [Title one](https://a.example/1)\n\n[^2]: [Two](https://b.example/)\n',
  );
  assert.deepEqual(block.definitions, [
    { n: 1, quote: 'A quote.', title: 'Title one', url: 'https://a.example/1' },
    { n: 2, quote: null, title: 'Two', url: 'https://b.example/' },
  ]);
});

test('definitions followed by text, markers without definitions, and none at all give nothing', () => {
  for (const text of ['[^1]: early\n\nThen the answer.', 'Cited[^1] only.', '', 'plain'])
    assert.equal(footnoteBlock(text), null, text);
});

test('a definition without a link keeps its text and has no URL', () => {
  assert.deepEqual(footnoteBlock('x\n[^3]: only words')!.definitions, [
    { n: 3, quote: 'only words', title: null, url: null },
  ]);
});

test('long input: 20,000 definitions are read in one pass', () => {
  const lines = Array.from({ length: 20_000 }, (_, i) => `[^${(i % 9999) + 1}]: q [t](https://a.example/${i})`);
  const text = `Answer.\n${lines.join('\n')}`;
  assert.equal(footnoteBlock(text)!.definitions.length, 20_000);
});

test('a text opening with a footnote definition, not one citing a footnote', () => {
  assert.equal(opensFootnoteDefinition('  [^12]: A quote. [Title](https://a.example/)\nmore'), true);
  assert.equal(opensFootnoteDefinition('Cited here[^1].'), false);
  assert.equal(opensFootnoteDefinition('[^1] without a colon'), false);
});

test('a definition whose line holds another line break (U+2028) is not one, however many blanks before it', () => {
  // Read with /^\[\^(\d{1,4})\]:[ \t]*(.*)$/, such a line failed in time quadratic in its blanks.
  const blanks = ' \t'.repeat(50_000);
  for (const end of ['\u2028', 'x\u2029', 'x\ry']) {
    assert.equal(footnoteBlock(`Fact[^1].\n[^1]:${blanks}${end}`), null, JSON.stringify(end));
    assert.equal(opensFootnoteDefinition(`[^1]:${blanks}${end}`), false);
  }
  assert.deepEqual(footnoteBlock(`Fact[^1].\n[^1]:${blanks}q [T](https://a.example/)${blanks}`)!.definitions, [
    { n: 1, quote: 'q', title: 'T', url: 'https://a.example/' },
  ]);
});
