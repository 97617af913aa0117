import assert from 'node:assert/strict';
import { test } from 'node:test';

import { citation } from '../../../test-support/citation.js';
import { blocksFound, shownSources } from '../../../test-support/shown-sources.js';
import { linkMarkers } from '../markers.js';
import { referenceId, referencesBlock } from '../references.js';
import { lightragReferences } from './lightrag-references.js';

const TEXT = 'Tea is grown in Kenya [1].\n\n### References\n\n- [1] tea.pdf\n- [2] kenya.md\n';

test("LightRAG's References list is hidden with the sources shown that it names, as the answer's list", () => {
  const [first] = referencesBlock(TEXT)!.references;
  assert.deepEqual(blocksFound(lightragReferences, shownSources(TEXT, [{ index: 5, id: referenceId(first!) }])), [
    { start: TEXT.indexOf('### References'), end: TEXT.length, indices: [5], heading: 'References' },
  ]);
});

test('a References list naming no source shown is left in place', () => {
  assert.deepEqual(blocksFound(lightragReferences, shownSources(TEXT, [{ index: 1, id: 'other.pdf' }])), []);
});

test("once the References list is hidden, it is the answer's list: no list above it is hidden as sources", () => {
  const text = `Tea [1].\n\nSources:\n1. [Tea guide](https://a.example/tea)\n2. [Kenya](https://b.example/ke)\n\n${TEXT.slice(TEXT.indexOf('###'))}`;
  const id = referenceId(referencesBlock(text)!.references[0]!);
  const sources = [
    citation(1, { id }),
    citation(2, { url: 'https://a.example/tea', refs: [] }),
    citation(3, { url: 'https://b.example/ke', refs: [] }),
  ];
  const hidden = linkMarkers(text, sources).filter((span) => span.kind === 'hide');
  assert.deepEqual(
    hidden.map((span) => text.slice(span.start, span.end)),
    [text.slice(text.indexOf('### References'))],
  );
});
