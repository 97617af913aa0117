import assert from 'node:assert/strict';
import { test } from 'node:test';

import { mayHoldMarker } from '../markers.js';
import { MARKER_SYNTAXES, markerPattern, syntaxOf } from './index.js';

// One marker of each syntax, in a sentence: a new syntax adds its own here.
const EXAMPLES: Record<string, string> = {
  grokN: 'Rain falls.[[1]](https://a.example/)',
  wrapN: 'Rain falls.[[1](https://a.example/)]',
  caretFoot: 'Rain falls.[^1^]',
  doc: 'Rain falls [doc1].',
  foot: 'Rain falls.[^1]',
  linkN: 'Rain falls [1](https://a.example/).',
  list: 'Rain falls [1, 2].',
  labelled: 'Rain falls [ref_1].',
  wide: 'Rain falls【1†source】.',
  supTag: 'Rain falls<sup>1</sup>.',
  superscript: 'Rain falls.¹',
  ragflow: 'Rain falls (ID:1).',
  cite: 'Rain falls [6650c0a1b2c3d4e5f6a7b801](CITE).',
  caret: 'Rain falls ^[1][2]^.',
};

test("every syntax's marker is let through by the cheap test, by a lead of its own", () => {
  assert.deepEqual(Object.keys(EXAMPLES).sort(), MARKER_SYNTAXES.map((syntax) => syntax.group).sort());
  for (const syntax of MARKER_SYNTAXES) {
    const example = EXAMPLES[syntax.group]!;
    const match = [...example.matchAll(markerPattern())].find((m) => syntaxOf(m.groups ?? {}) === syntax);
    assert.ok(match, `${syntax.group}: its example is read as its own marker`);
    assert.ok(
      syntax.leads.some((lead) => match[0].includes(lead)),
      `${syntax.group}: its marker "${match[0]}" holds one of its leads`,
    );
    assert.ok(mayHoldMarker(match[0]), syntax.group);
  }
  assert.equal(mayHoldMarker('Rain falls. It is wet.'), false);
});
